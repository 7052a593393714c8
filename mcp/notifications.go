package mcp

import "encoding/json"

// A server's notifications (docs/security.md, "Notifications") reach the
// guard on every SSE stream of a connection: the stream of a POST, a
// resumed one, the standalone GET stream and the legacy transport's one
// stream. sseFilter hands each one to notification, which routes
// notifications/progress by its token (progress.go) and
// notifications/tools/list_changed to the connection's hook
// (listchanged.go); every other one is ignored and counted. A notification
// never blocks the stream for long: progress hooks are fire-and-forget and
// a list change only schedules a refresh.

// Notification methods the client acts on.
const (
	methodProgress         = "notifications/progress"
	methodToolsListChanged = "notifications/tools/list_changed"
)

// notification routes one notification the server sent on a stream.
func (g *guard) notification(msg *jsonrpcMessage) {
	switch msg.Method {
	case methodProgress:
		g.progress.deliver(g, msg.Params)
	case methodToolsListChanged:
		g.stats.listChanged.Add(1)
		if hook := g.listChanged.Load(); hook != nil {
			(*hook)()
		} else {
			g.stats.notificationsIgnored.Add(1)
		}
	default:
		g.stats.notificationsIgnored.Add(1)
	}
}

// isNotification reports whether msg is a notification: a method, no id.
func isNotification(msg *jsonrpcMessage) bool {
	return msg.Method != "" && !msg.hasID()
}

// capabilities is what the client reads of the server's declared
// capabilities in its initialize result.
type capabilities struct {
	Tools *struct {
		ListChanged bool `json:"listChanged"`
	} `json:"tools"`
}

// toolsListChanged reports whether an initialize result declares
// capabilities.tools.listChanged.
func toolsListChanged(initResult json.RawMessage) bool {
	var res struct {
		Capabilities capabilities `json:"capabilities"`
	}
	if json.Unmarshal(initResult, &res) != nil || res.Capabilities.Tools == nil {
		return false
	}
	return res.Capabilities.Tools.ListChanged
}
