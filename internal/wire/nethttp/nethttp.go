// Package nethttp adapts net/http's transport to wire.RoundTripper: the
// MCP client's base transport natively (and in the js/wasm go tests, whose
// servers listen on Go's in-process network). The wasm builds never import
// it; they send through jsbridge/fetch.
package nethttp

import (
	"bytes"
	"io"
	"net/http"

	"github.com/toolgate/toolgate/internal/wire"
)

// Transport sends wire requests with Base (nil: http.DefaultTransport). It
// is a bare http.RoundTripper exchange, as under an http.Client that
// follows no redirect: a 3xx answer is returned, not followed, and no
// cookie jar is consulted. It refuses what Base refuses (its error is
// returned unwrapped, without the URL http.Client would prefix).
type Transport struct {
	Base http.RoundTripper
}

// RoundTrip sends req through Base and returns its answer.
func (t Transport) RoundTrip(req *wire.Request) (*wire.Response, error) {
	base := t.Base
	if base == nil {
		base = http.DefaultTransport
	}
	var body io.Reader
	if len(req.Body) > 0 {
		body = bytes.NewReader(req.Body)
	}
	hr, err := http.NewRequestWithContext(req.Context(), req.Method, req.URL.String(), body)
	if err != nil {
		return nil, err
	}
	hr.URL = req.URL
	if req.Header != nil {
		hr.Header = http.Header(req.Header)
	}
	resp, err := base.RoundTrip(hr)
	if err != nil {
		return nil, err
	}
	return &wire.Response{StatusCode: resp.StatusCode, Header: wire.Header(resp.Header), Body: resp.Body}, nil
}
