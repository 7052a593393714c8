package mcpops

import "github.com/toolgate/toolgate/jsbridge"

// Calls are the options of the MCP calls, by JS name. cmd/gen-contract
// writes them into the npm package, so JS and Go check the same names.
var Calls = map[string]jsbridge.Options{
	"registerMcpServer": {Go: []string{"toolNames", "requestOptions", "update", "security", "qualify", "result", "tasks", "filter", "requireApproval", "approve", "approvalTimeoutMs", "onProgress", "onToolsChanged", "roots", "sampling", "elicitation", "auth", "onWarning"}, JSOnly: []string{"defer"}},
	"loadMcpConfig":     {Go: []string{"serverNames", "update", "security", "result", "tasks", "strict", "filter", "requireApproval", "approve", "approvalTimeoutMs", "onProgress", "onToolsChanged", "roots", "sampling", "elicitation", "auth", "onWarning", "env"}, JSOnly: []string{"defer"}},
	"loadMcpTools":      {Go: []string{"serverNames", "requestOptionsMap", "security", "result", "tasks", "strict", "filter", "requireApproval", "approve", "approvalTimeoutMs", "onProgress", "roots", "sampling", "elicitation", "auth", "onWarning", "env"}},
}
