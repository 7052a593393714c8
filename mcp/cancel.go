package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/toolgate/toolgate/core"
)

// cancelNoticeWait bounds the notifications/cancelled POST sent for a
// request the caller gave up on.
const cancelNoticeWait = 5 * time.Second

// cancelNotice tells the server, best effort and in the background, that
// the request id will not be waited for: the spec's notifications/cancelled
// with the request id and a reason (no secret: only whether the caller
// cancelled or a deadline passed). initialize is never cancelled (the spec
// forbids it). It is sent only when ctx has ended or err is a deadline
// (the guard's own timeoutMs may end the request a moment before ctx's);
// the request's own
// context values (its exchange and failure sink) are not reused, so the
// notice answers nothing and records no failure.
func (s *session) cancelNotice(ctx context.Context, method string, id json.RawMessage, err error) {
	deadline := errors.Is(ctx.Err(), context.DeadlineExceeded) || core.AsError(err).Code == core.CodeTimeout
	if method == "initialize" || (ctx.Err() == nil && !deadline) {
		return
	}
	reason := "the caller cancelled the request"
	if deadline {
		reason = "the request's deadline (timeoutMs) passed"
	}
	params, _ := json.Marshal(map[string]any{"requestId": id, "reason": reason}) // an id and a fixed text
	body, _ := json.Marshal(jsonrpcMessage{JSONRPC: "2.0", Method: "notifications/cancelled", Params: params})
	go func() {
		nctx, cancel := context.WithTimeout(withValue(context.Background(), &failureSink{}), cancelNoticeWait)
		defer cancel()
		if resp, err := s.post(nctx, body); err == nil {
			discardBody(resp.Body)
		}
	}()
}
