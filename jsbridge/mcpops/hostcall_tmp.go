package mcpops

import (
	"context"
	"encoding/json"

	"github.com/toolgate/toolgate/core"
)

// callHost is replaced by jsbridge.HostCall once it lands (TEMPORARY).
var callHost = func(context.Context, int64, []byte) (json.RawMessage, error) {
	return nil, core.Errorf(core.CodeInternal, "", "no host")
}
