package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"strconv"
	"strings"
)

// jsonrpcMessage is one JSON-RPC 2.0 message as the session layer reads
// and writes it: a request (method and id), a notification (method, no
// id) or an answer (id with result or error). Params and result stay raw,
// so no schema keyword or content type is lost on the way.
type jsonrpcMessage struct {
	JSONRPC string           `json:"jsonrpc"`
	ID      json.RawMessage  `json:"id,omitempty"`
	Method  string           `json:"method,omitempty"`
	Params  json.RawMessage  `json:"params,omitempty"`
	Result  json.RawMessage  `json:"result,omitempty"`
	Error   *jsonrpcErrorObj `json:"error,omitempty"`
}

// jsonrpcErrorObj is the error member of a JSON-RPC answer.
type jsonrpcErrorObj struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// hasID reports whether m carries an id other than null.
func (m *jsonrpcMessage) hasID() bool {
	id := bytes.TrimSpace(m.ID)
	return len(id) > 0 && !bytes.Equal(id, []byte("null"))
}

// isAnswer reports whether m is an answer: an id (null allowed for an
// error) and no method.
func (m *jsonrpcMessage) isAnswer() bool {
	return m.Method == "" && (m.hasID() || m.Error != nil)
}

// idKey is the key an id is matched by: "s:" and the string, "n:" and the
// number in its shortest form, or "x:" and the JSON text of anything else.
func idKey(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return "s:" + s
		}
	}
	if n, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
		return "n:" + strconv.FormatInt(n, 10)
	}
	if f, err := strconv.ParseFloat(string(raw), 64); err == nil {
		return "n:" + strconv.FormatFloat(f, 'g', -1, 64)
	}
	return "x:" + string(raw)
}

// idShown is an id as compact JSON text, for messages.
func idShown(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil || b.Len() == 0 {
		return "null"
	}
	return b.String()
}

// sseEvent is one server-sent event.
type sseEvent struct {
	event string
	data  string
	id    string // the id: field, when the event had one
	retry int    // the retry: field in ms, or -1
}

// sseReader splits a text/event-stream into events: '\n' ends a line, "\r\n"
// is trimmed, a blank line ends an event, data lines join with '\n' (the
// same split as sseFilter's, so both see the same events). A last event
// without its blank line is dispatched at EOF.
type sseReader struct {
	r *bufio.Reader
}

// newSSEReader reads events from body.
func newSSEReader(body io.Reader) *sseReader {
	return &sseReader{r: bufio.NewReader(body)}
}

// next returns the next event with data, id or retry, or the read error
// (io.EOF at the end).
func (s *sseReader) next() (sseEvent, error) {
	ev := sseEvent{retry: -1}
	seen, hasData := false, false
	for {
		line, err := s.r.ReadString('\n')
		if err != nil {
			if err == io.EOF && hasData {
				return ev, nil
			}
			return sseEvent{}, err
		}
		text := strings.TrimRight(line, "\r\n")
		switch {
		case text == "":
			if seen {
				return ev, nil
			}
		case strings.HasPrefix(text, "event:"):
			ev.event = strings.TrimSpace(text[len("event:"):])
		case strings.HasPrefix(text, "data:"):
			v := strings.TrimPrefix(text[len("data:"):], " ")
			if hasData {
				ev.data += "\n" + v
			} else {
				ev.data = v
			}
			hasData, seen = hasData || v != "", true
		case strings.HasPrefix(text, "id:"):
			ev.id = strings.TrimSpace(text[len("id:"):])
			seen = true
		case strings.HasPrefix(text, "retry:"):
			if n, err := strconv.Atoi(strings.TrimSpace(text[len("retry:"):])); err == nil && n >= 0 {
				ev.retry = n
			}
			seen = true
		}
	}
}
