//go:build js && wasm

package jsbridge

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"syscall/js"

	"github.com/toolgate/toolgate/core"
)

// nextHostCall numbers host calls, so that hostAbort names the one to
// abort.
var nextHostCall atomic.Int64

// installHost makes HostCall and HostNotify call boot.host and
// boot.hostNotify, the loader's entry points (npm/lib/host.js).
func installHost(boot js.Value) {
	host, notify, abort := boot.Get("host"), boot.Get("hostNotify"), boot.Get("hostAbort")
	if host.Type() != js.TypeFunction || notify.Type() != js.TypeFunction || abort.Type() != js.TypeFunction {
		return // a loader without hooks: HostCall stays nil and CallHost refuses
	}
	HostCall = func(ctx context.Context, id int64, payload []byte) (json.RawMessage, error) {
		return hostCall(ctx, host, abort, id, payload)
	}
	HostNotify = func(id int64, payload []byte) {
		defer func() { _ = recover() }()
		notify.Invoke(float64(id), string(payload))
	}
}

// hostCall runs one host call: boot.host(id, callID, payload) returns a
// Promise of the status byte and JSON ('0' result, '1' error), which always
// settles, even when the hook never does (hostAbort settles it), so the
// callback below always runs and releases itself.
func hostCall(ctx context.Context, host, abort js.Value, id int64, payload []byte) (json.RawMessage, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	callID := nextHostCall.Add(1)
	got := make(chan string, 1)
	var then js.Func
	liveFuncs.Add(1)
	then = js.FuncOf(func(_ js.Value, args []js.Value) any {
		then.Release()
		liveFuncs.Add(-1)
		out := ""
		if len(args) > 0 && args[0].Type() == js.TypeString {
			out = args[0].String()
		}
		got <- out
		return nil
	})
	host.Invoke(float64(id), float64(callID), string(payload)).Call("then", then)
	select {
	case out := <-got:
		return hostAnswer(out)
	case <-ctx.Done():
		abort.Invoke(float64(callID))
		return nil, ctx.Err()
	}
}

// hostAnswer decodes boot.host's answer.
func hostAnswer(out string) (json.RawMessage, error) {
	if len(out) > 0 && out[0] == '0' {
		return json.RawMessage(out[1:]), nil
	}
	if len(out) > 0 && out[0] == '1' {
		var e core.Error
		if json.Unmarshal([]byte(out[1:]), &e) == nil && e.Code != "" {
			return nil, &e
		}
	}
	return nil, core.Errorf(core.CodeInternal, "", "a hook's answer did not reach Go")
}
