package jsbridge

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/toolgate/toolgate/core"
)

func TestCallHostWithoutAHostRefusesAsUnsupported(t *testing.T) {
	saved := HostCall
	HostCall = nil
	defer func() { HostCall = saved }()
	_, err := CallHost(context.Background(), 7, []byte(`{}`))
	if ce := core.AsError(err); ce == nil || ce.Code != core.CodeUnsupported {
		t.Fatalf("err = %v, want unsupported", err)
	}
}

func TestDebugHostAnswersTheHooksResult(t *testing.T) {
	saved := HostCall
	defer func() { HostCall = saved }()
	HostCall = func(_ context.Context, id int64, payload []byte) (json.RawMessage, error) {
		return json.RawMessage(`{"id":` + string(rune('0'+id)) + `,"got":` + string(payload) + `}`), nil
	}
	out := New("test").callAsync(context.Background(), "debug.host", 3, []byte(`[1]`))
	if string(out) != `0{"id":3,"got":[1]}` {
		t.Fatalf("debug.host = %s", out)
	}
}
