// Package wire is the HTTP message layer of the MCP client: the request,
// response and header types the guard (mcp) and the transports under it
// exchange, and the RoundTripper interface between them. It imports no
// net/http, so that the full wasm build, whose transport is
// globalThis.fetch (jsbridge/fetch), links none of net/http's client
// machinery (TLS, HTTP/2, multipart …); natively, wire/nethttp adapts
// net/http's transport to it.
//
// It parses and sends nothing itself: it only carries a message between
// the guard and a transport.
package wire

import (
	"context"
	"errors"
	"io"
	"net/url"
)

// The methods the MCP client sends.
const (
	MethodGet    = "GET"
	MethodPost   = "POST"
	MethodDelete = "DELETE"
)

// The status codes the MCP client tells apart.
const (
	StatusOK           = 200
	StatusAccepted     = 202
	StatusNoContent    = 204
	StatusBadRequest   = 400
	StatusUnauthorized = 401
	StatusNotFound     = 404
)

// ErrOpaque marks a request that failed without a readable cause: in a
// browser, fetch rejects a request its CORS check refused (or a host it
// could not reach) with a bare TypeError. A transport wraps it (%w) so the
// MCP client can treat it as the spec's browser evidence of a legacy server
// when it answers the era probe (docs/mcp-eras.md).
var ErrOpaque = errors.New("the request failed without a readable cause (in a browser: a CORS refusal or an unreachable host)")

// RoundTripper sends one request and returns the answer once its status
// and headers have arrived; the body streams afterwards. It follows no
// redirect: a 3xx answer is returned as it is (or, for a transport that
// cannot see it, fails the request), so that the caller's policy decides.
// A non-nil error means no response; a response's Body is never nil and
// the caller closes it. It must be safe for concurrent use.
type RoundTripper interface {
	RoundTrip(*Request) (*Response, error)
}

// Request is one HTTP request: a method, an absolute URL, headers and a
// body held in memory (the MCP client's requests are JSON messages), under
// a context that cancels the exchange, body reading included.
type Request struct {
	Method string
	URL    *url.URL
	Header Header
	Body   []byte // nil: no body

	ctx context.Context
}

// errNoContext refuses a request without a context.
var errNoContext = errors.New("wire: nil context")

// NewRequest returns a request of method to rawURL with body under ctx, and
// an empty header. It refuses a nil ctx, an empty method and a URL that
// does not parse.
func NewRequest(ctx context.Context, method, rawURL string, body []byte) (*Request, error) {
	if ctx == nil {
		return nil, errNoContext
	}
	if method == "" {
		return nil, errors.New("wire: empty method")
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, err
	}
	return &Request{Method: method, URL: u, Header: Header{}, Body: body, ctx: ctx}, nil
}

// Context returns the request's context (context.Background when none was
// set).
func (r *Request) Context() context.Context {
	if r.ctx == nil {
		return context.Background()
	}
	return r.ctx
}

// WithContext returns a shallow copy of r under ctx (URL, header and body
// are shared). It panics on a nil ctx, as net/http does.
func (r *Request) WithContext(ctx context.Context) *Request {
	if ctx == nil {
		panic(errNoContext)
	}
	r2 := *r
	r2.ctx = ctx
	return &r2
}

// Response is the answer to a request: its status code, headers and the
// body, streamed, which the receiver reads and closes.
type Response struct {
	StatusCode int
	Header     Header
	Body       io.ReadCloser
}

// ClosesClean is implemented by a response body whose Close alone ends the
// exchange as well as reading it to the end would (the connection stays
// reusable): a receiver that wants none of the rest closes it instead of
// draining it. net/http's bodies are not such: a connection is reused
// only after its body was read to EOF.
type ClosesClean interface {
	ClosesClean()
}

// NoBody is an empty body: Read returns io.EOF, Close does nothing.
var NoBody io.ReadCloser = noBody{}

type noBody struct{}

func (noBody) Read([]byte) (int, error) { return 0, io.EOF }
func (noBody) Close() error             { return nil }
