package mcpops

import (
	"github.com/toolgate/toolgate/internal/wire/nethttp"
	"github.com/toolgate/toolgate/mcp"
)

// newPool is the pool of the tests: its base transport is net/http's,
// natively and under js (where the servers listen on Go's in-process
// network), since mcp has no default base under js.
func newPool() *mcp.Pool {
	return mcp.NewPool(&mcp.Options{BaseTransport: nethttp.Transport{}})
}
