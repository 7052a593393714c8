package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"mime"
	"strings"
	"time"

	"github.com/toolgate/toolgate/core"
	"github.com/toolgate/toolgate/internal/wire"
)

// HTTP error answers, reported as they are: every one is a transport
// error with its status in Transport.HTTPStatus and, when its body is a
// JSON-RPC error, that error's code and message (Transport.RPCCode,
// Transport.RPCMessage; redacted and cut). The message says what the status means for an MCP client. The
// legacy SSE hint is given only when the URL really serves the legacy
// transport: the MCP spec's backwards compatibility (2025-03-26 and later,
// "Transports") has a client that POSTs initialize and gets 400, 404 or
// 405 issue a GET, and the server is a legacy one when that GET opens an
// event stream whose first event is "endpoint" (probeLegacy).

// httpAnswer is what an HTTP error answer showed: its status, the
// request's HTTP method and URL, its headers and its JSON-RPC error (nil
// when its body was none).
type httpAnswer struct {
	status int
	verb   string // POST, GET
	target string
	header wire.Header
	rpc    *jsonrpcErrorObj
	rpcID  json.RawMessage // the id the JSON-RPC error answered
}

// answerOfStatus is the httpAnswer of resp to a request of verb to target,
// its body read for a JSON-RPC error (the guard passes on only an
// application/json body of an error status).
func answerOfStatus(resp *wire.Response, verb, target string) *httpAnswer {
	a := &httpAnswer{status: resp.StatusCode, verb: verb, target: target, header: resp.Header}
	var m jsonrpcMessage
	if json.NewDecoder(resp.Body).Decode(&m) == nil && m.Error != nil {
		a.rpc, a.rpcID = m.Error, m.ID
	}
	return a
}

// statusNames are the reason phrases of the statuses messages name.
var statusNames = map[int]string{
	400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
	406: "Not Acceptable", 408: "Request Timeout", 409: "Conflict", 410: "Gone", 413: "Content Too Large",
	415: "Unsupported Media Type", 422: "Unprocessable Content", 429: "Too Many Requests",
	500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable",
	504: "Gateway Timeout",
}

// httpFailure is the transport error of the HTTP error answer a to the
// request of method (a JSON-RPC method, "" when the session names none),
// prefix (when not "") leading its message. For initialize over Streamable
// HTTP answered 400, 404 or 405 it first probes the URL for a legacy SSE
// server.
func (s *session) httpFailure(ctx context.Context, a *httpAnswer, method, prefix string) *core.Error {
	cfg := s.cfg
	what := s.statusMeaning(a)
	if method == "initialize" && !s.legacy && (a.status == 400 || a.status == 404 || a.status == 405) && s.probeLegacy(ctx) {
		what = fmt.Sprintf("the server does not speak Streamable HTTP at %s, but a GET there opens a legacy SSE stream "+
			"(an endpoint event): set transport: %q in this server's config", displayURL(a.target, cfg.secrets()), TransportSSE)
	}
	status := fmt.Sprintf("HTTP %d", a.status)
	if name := statusNames[a.status]; name != "" {
		status += " " + name
	}
	if scheme := authScheme(a.header); scheme != "" && (a.status == 401 || a.status == 403) {
		status += ", WWW-Authenticate scheme " + cfg.quote(scheme, 40)
	}
	if method != "" {
		status = cfg.cut(method, 60) + " answered " + status
	}
	msg := what + " (" + status + ")"
	if prefix != "" {
		msg = prefix + ": " + msg
	}
	e := serverError(core.CodeTransport, cfg.Name, cfg, "%s", msg)
	e.Transport = &core.TransportDetail{HTTPStatus: a.status}
	if a.rpc != nil {
		withRPC(e, cfg, a.rpc.Code, a.rpc.Message)
		e.Message += fmt.Sprintf("; the server said: JSON-RPC error %d: %s%s", a.rpc.Code, cfg.quote(a.rpc.Message, 300), modernErrorText(cfg, a.rpc))
	}
	return e
}

// withRPC sets e's JSON-RPC fields (Transport.RPCCode and RPCMessage), the
// message redacted and cut.
func withRPC(e *core.Error, cfg *ServerConfig, code int, message string) {
	if e.Transport == nil {
		e.Transport = &core.TransportDetail{}
	}
	e.Transport.RPCCode = &code
	e.Transport.RPCMessage = cfg.cut(message, 300)
}

// statusMeaning says what a's status means for an MCP client.
func (s *session) statusMeaning(a *httpAnswer) string {
	at := displayURL(a.target, s.cfg.secrets())
	mediaType, _, _ := mime.ParseMediaType(a.header.Get("Content-Type"))
	switch a.status {
	case 401:
		return "the server requires authorization: it accepted no credentials from this request; " +
			"check the token or headers configured for this server"
	case 403:
		return "the server refused authorization: the credentials sent are not allowed here; " +
			"check the token or headers configured for this server"
	case 404:
		return "the path was not found: the server has nothing at " + at + "; check the URL's path"
	case 405:
		if s.legacy && a.verb == wire.MethodGet {
			return "the server does not open an SSE stream on GET at " + at + "; if it speaks Streamable HTTP, drop transport: \"sse\""
		}
		return "the server does not accept " + a.verb + " at " + at + "; check the URL and the transport"
	case 406:
		return "the server accepts none of the answer types an MCP client asks for (Accept: application/json, text/event-stream); it may not be an MCP server"
	case 415:
		return "the server does not accept a JSON request body (Content-Type: application/json); it may not be an MCP server"
	}
	if mediaType == "text/html" {
		return "the server answered with an HTML page, not MCP: a proxy, gateway, login page or website at " + at + "?"
	}
	if a.status >= 500 {
		return "the server failed"
	}
	return "the server refused the request"
}

// authScheme is the first auth scheme of a WWW-Authenticate header (a
// token, at most 30 bytes, before a space or comma), never its parameters; "" when none.
func authScheme(h wire.Header) string {
	v := strings.TrimSpace(h.Get("WWW-Authenticate"))
	end := strings.IndexAny(v, " \t,=")
	if end >= 0 {
		if v[end] == '=' {
			return "" // a parameter, not a scheme
		}
		v = v[:end]
	}
	if v == "" || len(v) > 30 {
		return ""
	}
	for _, c := range v {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("!#$%&'*+-.^_`|~", c)) {
			return ""
		}
	}
	return v
}

// probeWait bounds the legacy probe's wait for the first event.
const probeWait = 3 * time.Second

// probeLegacy reports whether the server's URL serves the legacy SSE
// transport: a GET (the configured headers, Accept: text/event-stream)
// answered 200 text/event-stream whose first event is "endpoint", within
// probeWait. The probe has its own failure sink, so nothing it meets
// becomes the operation's failure; its stream is closed at once.
func (s *session) probeLegacy(ctx context.Context) bool {
	ctx, cancel := context.WithTimeout(withValue(ctx, &failureSink{}), probeWait)
	defer cancel()
	req, err := wire.NewRequest(ctx, wire.MethodGet, s.cfg.URL, nil)
	if err != nil {
		return false
	}
	s.setHeaders(req.Header, "text/event-stream")
	req.Header.Del("Content-Type")
	resp, err := s.send(req, false)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	mediaType, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if resp.StatusCode != wire.StatusOK || mediaType != "text/event-stream" {
		return false
	}
	ev, err := newSSEReader(resp.Body).next()
	return err == nil && ev.event == "endpoint" && ev.data != ""
}
