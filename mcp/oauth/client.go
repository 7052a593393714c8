package oauth

import (
	"context"
	"encoding/json"
	"io"
	"net/url"

	"github.com/toolgate/toolgate/internal/wire"
)

// MaxBody is the most bytes read from any answer of the flow (metadata,
// registration, token): a server that sends more is refused.
const MaxBody = 1 << 20

// Client sends the flow's HTTP requests. Check is the URL policy (the
// registration's Security): it returns nil to allow a URL, or the error
// that refuses it (policy-denied, with its rule), and runs before every
// request of the flow. Transport sends what Check allowed; redirects are
// never followed (a 3xx is an answer like any other).
type Client struct {
	Transport wire.RoundTripper
	Check     func(rawURL string) error
	// Secrets are the values no error of the flow may quote (tokens,
	// codes, verifiers, client secrets); the flow adds those it learns.
	Secrets *Secrets
	// DPoP is the registration's DPoP state (nil: never DPoP; NewDPoP).
	DPoP *DPoP
}

// Response is one answer of the flow: its status, headers and body (at
// most MaxBody bytes).
type Response struct {
	Status int
	Header wire.Header
	Body   []byte
}

// Send checks rawURL against c.Check, sends one request (method, headers,
// body) and reads its answer. It refuses, before sending, a URL the policy
// refuses (that error, unchanged), and fails with a transport *Error (step
// as given) when the request cannot be sent or the body is over MaxBody.
func (c *Client) Send(ctx context.Context, step Step, method, rawURL string, header wire.Header, body []byte) (*Response, error) {
	if c.Check != nil {
		if err := c.Check(rawURL); err != nil {
			return nil, err
		}
	}
	req, err := wire.NewRequest(ctx, method, rawURL, body)
	if err != nil {
		return nil, c.fail(step, rawURL, "the request cannot be made", err)
	}
	for k, vs := range header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	resp, err := c.Transport.RoundTrip(req)
	if err != nil {
		return nil, c.fail(step, rawURL, "the request failed", err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, MaxBody+1))
	if err != nil {
		return nil, c.fail(step, rawURL, "reading the answer failed", err)
	}
	if len(data) > MaxBody {
		return nil, c.fail(step, rawURL, "the answer is larger than 1 MiB", nil)
	}
	return &Response{Status: resp.StatusCode, Header: resp.Header, Body: data}, nil
}

// GetJSON GETs rawURL (Accept: application/json) and decodes a 200
// answer's JSON object into v; found is false on 404 (and on 4xx when
// notFoundAny), so discovery can try the next location. Other statuses
// and malformed JSON are *Errors of step.
func (c *Client) GetJSON(ctx context.Context, step Step, rawURL string, v any) (found bool, err error) {
	h := wire.Header{}
	h.Set("Accept", "application/json")
	h.Set("MCP-Protocol-Version", "2025-11-25")
	resp, err := c.Send(ctx, step, wire.MethodGet, rawURL, h, nil)
	if err != nil {
		return false, err
	}
	if resp.Status >= 400 && resp.Status < 500 {
		return false, nil
	}
	if resp.Status != 200 {
		return false, c.fail(step, rawURL, "the server answered HTTP "+itoa(resp.Status), nil)
	}
	if err := json.Unmarshal(resp.Body, v); err != nil {
		return false, c.fail(step, rawURL, "the answer is not the JSON object expected", err)
	}
	return true, nil
}

// PostForm POSTs form (application/x-www-form-urlencoded) to rawURL with
// the extra headers; the answer is returned whatever its status.
func (c *Client) PostForm(ctx context.Context, step Step, rawURL string, form url.Values, header wire.Header) (*Response, error) {
	h := wire.Header{}
	for k, vs := range header {
		h[k] = append([]string(nil), vs...)
	}
	h.Set("Content-Type", "application/x-www-form-urlencoded")
	h.Set("Accept", "application/json")
	return c.Send(ctx, step, wire.MethodPost, rawURL, h, []byte(form.Encode()))
}

// fail is an *Error of step at rawURL: why, and cause's text, redacted.
func (c *Client) fail(step Step, rawURL, why string, cause error) *Error {
	msg := why
	if cause != nil {
		msg += ": " + cause.Error()
	}
	return c.Secrets.errorf(step, "", "", "%s (%s)", msg, redactURL(rawURL))
}

// itoa is strconv.Itoa for small non-negative numbers.
func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}
