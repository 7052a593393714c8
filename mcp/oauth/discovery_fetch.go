package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"strings"

	"github.com/toolgate/toolgate/internal/wire"
)

// lookup reads metadata documents from candidate URLs in order. A URL the
// policy refuses stops the lookup (that error, unchanged); a 3xx, 4xx or
// 502 answer means "not here, try the next"; a request that could not be
// sent or read (an answer over MaxBody) is remembered (soft) and the next
// URL tried, so that one
// unreachable location (a browser's CORS refusal of a 404, say) does not
// hide a document at the next. Any other status, and a document that is
// not the JSON object expected, is an *Error of step.
type lookup struct {
	c    *Client
	step Step
	soft error // the first request that could not be sent
}

// get GETs rawURL and decodes a 200 answer into v.
func (l *lookup) get(ctx context.Context, rawURL string, v any) (found bool, err error) {
	h := wire.Header{}
	h.Set("Accept", "application/json")
	h.Set("MCP-Protocol-Version", "2025-11-25")
	resp, err := l.c.Send(ctx, l.step, wire.MethodGet, rawURL, h, nil)
	if err != nil {
		var fe *Error
		if !errors.As(err, &fe) {
			return false, err // the policy refused: nothing was sent
		}
		if l.soft == nil {
			l.soft = err
		}
		return false, nil
	}
	switch s := resp.Status; {
	case s == 200:
	case s >= 300 && s < 500, s == 502:
		return false, nil
	default:
		return false, l.c.fail(l.step, rawURL, "the server answered HTTP "+itoa(s), nil)
	}
	if err := json.Unmarshal(resp.Body, v); err != nil || !isJSONObject(resp.Body) {
		return false, l.c.fail(l.step, rawURL, "the answer is not the JSON metadata object expected", nil)
	}
	return true, nil
}

// isJSONObject reports whether data is a JSON object (after spaces).
func isJSONObject(data []byte) bool {
	s := strings.TrimLeft(string(data), " \t\r\n")
	return strings.HasPrefix(s, "{")
}

// httpURL parses an absolute http or https URL with a host and without
// userinfo; what it refuses is named in the error's text.
func httpURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return nil, errors.New("it does not parse")
	case u.Scheme != "https" && u.Scheme != "http":
		return nil, errors.New("its scheme is not https")
	case u.Host == "" || u.Opaque != "":
		return nil, errors.New("it has no host")
	case u.User != nil:
		return nil, errors.New("it has userinfo")
	}
	return u, nil
}

// origin is u's scheme and host, lower-cased, without a default port.
func origin(u *url.URL) string {
	scheme := strings.ToLower(u.Scheme)
	host := strings.ToLower(u.Hostname())
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if p := u.Port(); p != "" && !(scheme == "https" && p == "443") && !(scheme == "http" && p == "80") {
		host += ":" + p
	}
	return scheme + "://" + host
}

// wellKnown is origin + "/.well-known/" + name + path, path without its
// trailing "/" (RFC 8414 §3.1, RFC 9728 §3.1 path insertion).
func wellKnown(u *url.URL, name, path string) string {
	return origin(u) + "/.well-known/" + name + strings.TrimSuffix(path, "/")
}

// trimSlash is s without a trailing "/".
func trimSlash(s string) string { return strings.TrimSuffix(s, "/") }
