package toolgate

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestCoreBuildLinksNoNetwork guards the two-build promise: toolgate-core.wasm
// links neither the mcp package (nor mcp-go) nor net/http, while the full
// build does link mcp.
func TestCoreBuildLinksNoNetwork(t *testing.T) {
	deps := func(pkg string) []string {
		t.Helper()
		cmd := exec.Command("go", "list", "-deps", pkg)
		cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go list %s: %v\n%s", pkg, err, out)
		}
		return strings.Fields(string(out))
	}
	for _, d := range deps("./cmd/wasm/core") {
		if d == "net/http" || strings.HasPrefix(d, "net/http/") || d == "github.com/toolgate/toolgate/mcp" || strings.HasPrefix(d, "github.com/mark3labs/") {
			t.Errorf("the core build links %s", d)
		}
	}
	full := strings.Join(deps("./cmd/wasm/full"), " ")
	if !strings.Contains(full, "github.com/toolgate/toolgate/mcp") {
		t.Errorf("the full build does not link the mcp package")
	}
}
