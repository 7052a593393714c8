// Adapted from Go's net/http/roundtrip_js.go:
//
// Copyright 2018 The Go Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.
//
// The full licence text is Go's LICENSE (https://go.dev/LICENSE).

//go:build js && wasm

package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall/js"
	"unicode/utf8"

	"github.com/toolgate/toolgate/internal/wire"
)

// Transport is a wire.RoundTripper on globalThis.fetch, for the full
// build's MCP client (it links no net/http). Go's own transport is unusable here: under Node it
// switches fetch off whenever process.argv0 starts with "node"
// (go.dev/issue/57613) and talks to a fake in-process network instead.
//
// Every request is sent with redirect "error" (a 3xx fails the request and
// nothing reaches the redirect target), credentials "omit" (no cookies or
// HTTP auth from the host environment), and its own AbortController, aborted
// when the request's context ends, during the exchange or while the body is
// being read. The request body is sent as it is; the response body is streamed
// from the ReadableStream, so Server-Sent Events arrive as they are sent.
// fetch is looked up on globalThis at each request, so an embedder (or a
// test spy) may replace it.
//
// It enforces no policy, size cap or deadline of its own: the caller wraps
// it (mcp's guard) and sets the deadline on the request context. Header keys
// beginning "js.fetch:" (Go's knobs for fetch options) are dropped, never
// honoured. It refuses, as an error, a missing fetch, a fetch that returns
// no Promise, a header value fetch rejects (naming the header, never
// quoting the value), and a response it cannot read; it never panics. When
// the context ends first it returns at once, even if fetch ignores its
// AbortSignal.
type Transport struct{}

var (
	fetchLiveFuncs atomic.Int64 // js.Funcs made here and not yet released
	fetchInFlight  atomic.Int64 // requests sent and response bodies not yet closed or drained
)

// Stats reports how many js.Funcs the transport holds and how many
// requests or response bodies are still open (leak tests).
func Stats() (liveFuncs, inFlight int64) {
	return fetchLiveFuncs.Load(), fetchInFlight.Load()
}

// settled is the outcome of a JS Promise: its value, or its rejection
// (err, with the rejection value in v).
type settled struct {
	v   js.Value
	err error
}

// await subscribes to p and returns a channel that receives its outcome
// exactly once. The two callbacks only copy the outcome into the buffered
// channel (nothing blocks inside a js.FuncOf) and release both funcs in
// whichever fires.
func await(p js.Value) <-chan settled {
	ch := make(chan settled, 1)
	var success, failure js.Func
	release := func() {
		success.Release()
		failure.Release()
		fetchLiveFuncs.Add(-2)
	}
	success = js.FuncOf(func(_ js.Value, args []js.Value) any {
		release()
		ch <- settled{v: arg0(args)}
		return nil
	})
	failure = js.FuncOf(func(_ js.Value, args []js.Value) any {
		release()
		ch <- settled{v: arg0(args), err: jsErrorText(arg0(args))}
		return nil
	})
	fetchLiveFuncs.Add(2)
	func() {
		defer func() {
			if recover() != nil { // p is not a thenable after all
				release()
				ch <- settled{err: errors.New("fetch did not return a Promise")}
			}
		}()
		p.Call("then", success, failure)
	}()
	return ch
}

func arg0(args []js.Value) js.Value {
	if len(args) == 0 {
		return js.Undefined()
	}
	return args[0]
}

// jsErrorText turns a rejection value into an error: the value's toString()
// and, for an Error with a cause (undici's "fetch failed"), the cause's.
func jsErrorText(v js.Value) (err error) {
	defer func() {
		if recover() != nil {
			err = errors.New("fetch failed (unreadable error)")
		}
	}()
	msg := describeJS(v)
	if v.Type() == js.TypeObject {
		if c := v.Get("cause"); c.Type() == js.TypeObject || c.Type() == js.TypeString {
			msg += ": " + describeJS(c)
		}
	}
	return errors.New(msg)
}

func describeJS(v js.Value) string {
	switch v.Type() {
	case js.TypeString:
		return v.String()
	case js.TypeObject:
		if ts := v.Get("toString"); ts.Type() == js.TypeFunction {
			return v.Call("toString").String()
		}
	}
	return v.Type().String()
}

// RoundTrip sends req with fetch and returns the response once its headers
// have arrived; the body streams afterwards.
func (Transport) RoundTrip(req *wire.Request) (resp *wire.Response, err error) {
	ctx := req.Context()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	g := js.Global()
	if g.Get("fetch").Type() != js.TypeFunction || g.Get("AbortController").Type() != js.TypeFunction {
		return nil, errors.New("fetch is not available in this JavaScript environment")
	}
	ac, promise, err := startFetch(req, req.Body)
	if err != nil {
		return nil, err
	}
	fetchInFlight.Add(1)
	ch := await(promise)
	var s settled
	select {
	case s = <-ch:
	case <-ctx.Done():
		abort(ac)
		// The abort rejects the promise; the callbacks release themselves
		// when it settles. Wait for that on the side, so that a fetch that
		// ignores its signal (an embedder's) cannot hold the caller.
		go func() {
			if s := <-ch; s.err == nil {
				cancelBody(s.v)
			}
			fetchInFlight.Add(-1)
		}()
		return nil, ctx.Err()
	}
	if s.err != nil {
		fetchInFlight.Add(-1)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if opaqueRejection(s.v) {
			return nil, fmt.Errorf("%w: %v", wire.ErrOpaque, s.err)
		}
		return nil, s.err
	}
	resp, err = buildResponse(req, ac, s.v)
	if err != nil {
		abort(ac)
		cancelBody(s.v)
		fetchInFlight.Add(-1)
		return nil, err
	}
	return resp, nil
}

// opaqueRejection reports whether fetch's rejection v is a browser's bare
// TypeError (a CORS refusal looks exactly like an unreachable host there):
// outside Node (no process.versions.node), a TypeError without a cause.
// Node's fetch rejects with a TypeError too, but with the network error as
// its cause, and is never opaque.
func opaqueRejection(v js.Value) (opaque bool) {
	defer func() {
		if recover() != nil {
			opaque = false
		}
	}()
	if v.Type() != js.TypeObject || v.Get("name").Type() != js.TypeString || v.Get("name").String() != "TypeError" {
		return false
	}
	if c := v.Get("cause"); c.Type() == js.TypeObject || c.Type() == js.TypeString {
		return false
	}
	p := js.Global().Get("process")
	return p.Type() != js.TypeObject || p.Get("versions").Type() != js.TypeObject ||
		p.Get("versions").Get("node").Type() != js.TypeString
}

// startFetch builds the fetch options and calls fetch. A JS exception (a
// header value fetch refuses) becomes an error.
//
// The options and the headers are made from JSON text in a few JS calls
// (jsonOptions), not one call per option and per header; the body crosses
// as a string when it is UTF-8 (what fetch would send for the bytes), else
// as a Uint8Array.
func startFetch(req *wire.Request, body []byte) (ac, promise js.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = errors.New("fetch refused the request")
		}
	}()
	g := js.Global()
	ac = g.Get("AbortController").New()
	opt, err := fetchOptions(g, req)
	if err != nil {
		return js.Value{}, js.Value{}, err
	}
	opt.Set("signal", ac.Get("signal"))
	if len(body) > 0 {
		if utf8.Valid(body) {
			opt.Set("body", string(body))
		} else {
			buf := g.Get("Uint8Array").New(len(body))
			js.CopyBytesToJS(buf, body)
			opt.Set("body", buf)
		}
	}
	promise = g.Call("fetch", req.URL.String(), opt)
	if promise.Type() != js.TypeObject || promise.Get("then").Type() != js.TypeFunction {
		return js.Value{}, js.Value{}, errors.New("fetch did not return a Promise")
	}
	return ac, promise, nil
}

// fetchOptions is the options object of req without signal and body:
// method, redirect "error", credentials "omit" and a Headers object of
// req's headers (the "js.fetch:" ones dropped). When every header is plain
// (plainHeader: fetch cannot refuse it), the object and the Headers are
// made from one JSON text; otherwise header by header, so that the one
// fetch refuses is named (appendHeader).
func fetchOptions(g js.Value, req *wire.Request) (js.Value, error) {
	text, plain := optionsJSON(req)
	opt := jsonParse(g, text)
	if plain {
		opt.Set("headers", g.Get("Headers").New(opt.Get("headers")))
		return opt, nil
	}
	headers := g.Get("Headers").New()
	for key, values := range req.Header {
		if dropped(key) {
			continue
		}
		for _, value := range values {
			if err := appendHeader(headers, key, value); err != nil {
				return js.Value{}, err
			}
		}
	}
	opt.Set("headers", headers)
	return opt, nil
}

// optionsJSON is {"method", "redirect": "error", "credentials": "omit",
// "headers": [[name, value], ...]} for req, the headers left out (an empty
// list) unless every one is plain; plain reports whether they are in.
func optionsJSON(req *wire.Request) ([]byte, bool) {
	b := make([]byte, 0, 256)
	b = append(b, `{"method":`...)
	b = strconv.AppendQuote(b, req.Method)
	b = append(b, `,"redirect":"error","credentials":"omit","headers":[`...)
	mark := len(b)
	plain, first := true, true
	for key, values := range req.Header {
		if dropped(key) {
			continue
		}
		for _, value := range values {
			if !plainHeader(key, value) {
				plain = false
				break
			}
			if !first {
				b = append(b, ',')
			}
			first = false
			b = append(b, `["`...)
			b = append(b, key...) // a token: nothing to escape
			b = append(b, `","`...)
			b = appendPlainValue(b, value)
			b = append(b, `"]`...)
		}
	}
	if !plain {
		b = b[:mark]
	}
	return append(b, "]}"...), plain
}

// dropped reports whether a header key is one of Go's "js.fetch:" knobs,
// which are never honoured.
func dropped(key string) bool {
	return len(key) >= 9 && strings.EqualFold(key[:9], "js.fetch:")
}

// plainHeader reports whether fetch takes name: value as it is: name is an
// HTTP token and value printable ASCII or tab (no CR, LF or NUL, nothing
// past 0x7E).
func plainHeader(name, value string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		if !wire.IsTokenByte(name[i]) {
			return false
		}
	}
	for i := 0; i < len(value); i++ {
		if c := value[i]; (c < 0x20 && c != '\t') || c > 0x7e {
			return false
		}
	}
	return true
}

// appendPlainValue appends a plain header value as the inside of a JSON
// string: only the quote, the backslash and the tab need escaping.
func appendPlainValue(b []byte, v string) []byte {
	for i := 0; i < len(v); i++ {
		switch c := v[i]; c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, c)
		}
	}
	return b
}

var (
	jsonOnce sync.Once
	jsonObj  js.Value
)

// jsonParse is JSON.parse(text) (the JSON object looked up once).
func jsonParse(g js.Value, text []byte) js.Value {
	jsonOnce.Do(func() { jsonObj = g.Get("JSON") })
	return jsonObj.Call("parse", string(text))
}

var (
	noopOnce sync.Once
	noopFunc js.Func
)

// ignoreRejection is a shared, never released no-op handler for promises
// whose rejection means nothing to us (cancelling a stream that already
// failed). An unhandled rejection would otherwise end a Node process.
func ignoreRejection() js.Func {
	noopOnce.Do(func() {
		noopFunc = js.FuncOf(func(js.Value, []js.Value) any { return nil })
	})
	return noopFunc
}

// appendHeader adds one request header. fetch's refusal quotes the value,
// which may be a secret, so the error names the header only.
func appendHeader(headers js.Value, key, value string) (err error) {
	defer func() {
		if recover() != nil {
			err = fmt.Errorf("fetch refused the value of request header %q (the value is not shown)", key)
		}
	}()
	headers.Call("append", key, value)
	return nil
}

func abort(ac js.Value) {
	defer func() { _ = recover() }()
	ac.Call("abort")
}

// cancelBody cancels a fetch Response's body stream we will not read.
func cancelBody(res js.Value) {
	defer func() { _ = recover() }()
	if res.Type() != js.TypeObject {
		return
	}
	if b := res.Get("body"); b.Type() == js.TypeObject && !b.Get("locked").Bool() {
		b.Call("cancel").Call("catch", ignoreRejection())
	}
}

// buildResponse copies status and headers out of a fetch Response and wraps
// its body stream.
func buildResponse(req *wire.Request, ac, res js.Value) (resp *wire.Response, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("reading the fetch response: %v", r)
		}
	}()
	header, err := readHeaders(res.Get("headers"))
	if err != nil {
		return nil, err
	}
	length := int64(-1)
	if cl := header.Get("Content-Length"); cl != "" {
		n, perr := strconv.ParseInt(cl, 10, 64)
		if perr != nil || n < 0 {
			return nil, fmt.Errorf("ill-formed Content-Length header %q", cl)
		}
		length = n
	}
	switch strings.ToLower(header.Get("Content-Encoding")) {
	case "gzip", "deflate", "br":
		// fetch has decoded the body; the length no longer applies.
		header.Del("Content-Encoding")
		header.Del("Content-Length")
		length = -1
	}
	code := res.Get("status").Int()
	var rc io.ReadCloser
	if b := res.Get("body"); b.Type() == js.TypeObject {
		r := newStreamReader(req.Context(), ac, b.Call("getReader"))
		r.left = length
		rc = r
	} else {
		// No body (204, HEAD): the exchange is over.
		fetchInFlight.Add(-1)
		rc = wire.NoBody
	}
	return &wire.Response{StatusCode: code, Header: header, Body: rc}, nil
}

// readHeaders copies a fetch Headers object in three JS calls, not five per
// header: its [name, value] pairs flattened and joined with "\n", which
// neither a name nor a value can contain (fetch refuses CR, LF and NUL in
// values, and names are tokens).
func readHeaders(h js.Value) (wire.Header, error) {
	joined := js.Global().Get("Array").Call("from", h).Call("flat").Call("join", "\n").String()
	header := wire.Header{}
	if joined == "" {
		return header, nil
	}
	parts := strings.Split(joined, "\n")
	if len(parts)%2 != 0 {
		return nil, errors.New("reading the fetch response headers: a name without a value")
	}
	for i := 0; i < len(parts); i += 2 {
		k := wire.CanonicalHeaderKey(parts[i])
		header[k] = append(header[k], parts[i+1])
	}
	return header, nil
}

var errBodyClosed = errors.New("fetch: response body is closed")

// streamReader is an io.ReadCloser over a ReadableStream reader. Reads are
// sequential (one pending read at a time); Close may be called from another
// goroutine while a Read waits, and ends that Read. When the request context
// ends, the AbortController aborts, which fails the pending read.
type streamReader struct {
	ctx     context.Context
	ac      js.Value
	reader  js.Value
	stop    func() bool // unregisters the context watcher
	pending []byte
	// left is how many bytes of the body are still to come when the
	// response declared its length (-1: not known). Once they have all
	// arrived the body ends without one more read for fetch's "done":
	// fetch (undici as browsers) refuses a body longer than its
	// Content-Length, so nothing can follow them.
	left int64

	mu     sync.Mutex
	err    error // sticky
	closed bool
	done   bool // the stream is finished; in-flight count released

	// The read callbacks, made at the first read and kept for every read
	// of the stream (one pair, not one per chunk): released by next when
	// the stream ends, or by Close when no read is pending (else by the
	// next that waits for it).
	got      chan settled
	onChunk  js.Func
	onFail   js.Func
	funcs    bool // made and not released
	reading  bool // a read is pending
	released bool
}

func newStreamReader(ctx context.Context, ac, reader js.Value) *streamReader {
	r := &streamReader{ctx: ctx, ac: ac, reader: reader, left: -1}
	r.stop = context.AfterFunc(ctx, func() {
		// Aborting alone is not enough: undici leaves a read pending on a
		// locked body stream until more bytes arrive. Cancelling the reader
		// settles it at once (done), and Read reports ctx's error.
		abort(ac)
		cancelReader(reader)
	})
	return r
}

// cancelReader cancels a stream reader; a pending read resolves as done.
func cancelReader(reader js.Value) {
	defer func() { _ = recover() }()
	reader.Call("cancel").Call("catch", ignoreRejection())
}

// finish records the end of the stream once: it stops watching the context
// and releases the in-flight count. The caller holds r.mu.
func (r *streamReader) finish(err error) {
	if r.err == nil {
		r.err = err
	}
	if !r.done {
		r.done = true
		r.stop()
		fetchInFlight.Add(-1)
	}
}

// Read returns buffered bytes, or waits for the next chunk of the stream.
func (r *streamReader) Read(p []byte) (int, error) {
	r.mu.Lock()
	if r.err != nil {
		err := r.err
		r.mu.Unlock()
		return 0, err
	}
	r.mu.Unlock()
	if len(p) == 0 {
		return 0, nil
	}
	if len(r.pending) == 0 {
		var chunk []byte
		var err error
		if r.left == 0 {
			err = io.EOF
			r.releaseFuncs(false)
		} else {
			chunk, err = r.next()
		}
		if err != nil {
			r.mu.Lock()
			if r.closed {
				err = errBodyClosed
			} else if cerr := r.ctx.Err(); cerr != nil {
				err = cerr // also for the EOF of a reader cancelled because ctx ended
			}
			r.finish(err)
			err = r.err
			r.mu.Unlock()
			return 0, err
		}
		r.pending = chunk
	}
	n := copy(p, r.pending)
	r.pending = r.pending[n:]
	return n, nil
}

// next waits for one chunk. A pending read always settles: with a chunk, at
// the end of the stream, on Close (cancel resolves it as done) or on abort
// (it rejects).
func (r *streamReader) next() (chunk []byte, err error) {
	defer func() {
		if rec := recover(); rec != nil {
			chunk, err = nil, fmt.Errorf("reading the response body: %v", rec)
			r.mu.Lock()
			r.reading = false // the read never started, or its value was unreadable
			r.mu.Unlock()
		}
		if err != nil {
			r.releaseFuncs(false)
		}
	}()
	for {
		s, err := r.read()
		if err != nil {
			return nil, err
		}
		if s.err != nil {
			return nil, s.err
		}
		if s.v.Get("done").Bool() {
			return nil, io.EOF
		}
		v := s.v.Get("value")
		n := v.Get("byteLength").Int()
		if n == 0 {
			continue // an empty chunk is legal; read on
		}
		chunk = make([]byte, n)
		js.CopyBytesToGo(chunk, v)
		if r.left > 0 {
			r.left = max(0, r.left-int64(n))
		}
		return chunk, nil
	}
}

// read starts one reader.read() and waits for it to settle, through the
// reader's callbacks (made at the first read).
func (r *streamReader) read() (settled, error) {
	r.mu.Lock()
	if r.released {
		r.mu.Unlock()
		return settled{}, errBodyClosed // Close released the callbacks: no read is started
	}
	if !r.funcs {
		r.got = make(chan settled, 1)
		r.onChunk = js.FuncOf(func(_ js.Value, args []js.Value) any {
			r.got <- settled{v: arg0(args)}
			return nil
		})
		r.onFail = js.FuncOf(func(_ js.Value, args []js.Value) any {
			r.got <- settled{v: arg0(args), err: jsErrorText(arg0(args))}
			return nil
		})
		r.funcs = true
		fetchLiveFuncs.Add(2)
	}
	r.reading = true
	r.mu.Unlock()
	p := r.reader.Call("read")
	if p.Type() != js.TypeObject || p.Get("then").Type() != js.TypeFunction {
		r.mu.Lock()
		r.reading = false
		r.mu.Unlock()
		return settled{}, errors.New("the response body's read did not return a Promise")
	}
	p.Call("then", r.onChunk, r.onFail)
	s := <-r.got
	r.mu.Lock()
	r.reading = false
	r.mu.Unlock()
	return s, nil
}

// releaseFuncs releases the read callbacks once, unless a read is pending
// (then the read that waits for it releases them). closing also keeps any
// later read from starting.
func (r *streamReader) releaseFuncs(closing bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if closing {
		r.released = true
	}
	if !r.funcs || r.reading {
		return
	}
	r.funcs, r.released = false, true
	r.onChunk.Release()
	r.onFail.Release()
	fetchLiveFuncs.Add(-2)
}

// ClosesClean marks the body as one whose Close ends the exchange cleanly
// (wire.ClosesClean): cancelling a fetch body stream is what the official
// clients do with an answer they do not read, and reading the rest would
// only cost a promise round trip per chunk.
func (r *streamReader) ClosesClean() {}

// Close cancels the stream; a Read waiting in another goroutine returns.
func (r *streamReader) Close() error {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return nil
	}
	r.closed = true
	if !r.done && r.left != 0 { // left 0: every byte arrived, the exchange is over
		cancelReader(r.reader)
		abort(r.ac)
	}
	r.finish(errBodyClosed)
	r.mu.Unlock()
	r.releaseFuncs(true)
	return nil
}
