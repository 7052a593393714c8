package core

// Size limits checked on lengths, before anything is parsed: a request or
// provider response over MaxRequestBytes, arguments over MaxArgumentBytes
// (their text measured without decoding it) and a parameters schema over
// MaxSchemaBytes, so that refusing an oversized input costs a length
// comparison or one scan, never more than accepting an input within the
// limits.

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// requestSize refuses data (what names it: "the request", "the provider
// response") over MaxRequestBytes with invalid-request and an issue with
// keyword maxBytes.
func requestSize(what string, data []byte) error {
	if len(data) <= MaxRequestBytes {
		return nil
	}
	msg := what + " is " + strconv.Itoa(len(data)) + " bytes of JSON, more than the limit of " + strconv.Itoa(MaxRequestBytes)
	return &Error{Code: CodeInvalidRequest, Message: msg + ".", Issues: []Issue{{Path: "", Keyword: "maxBytes", Message: msg}}}
}

// argumentsSize refuses the arguments member raw of a call to tool when
// what it holds is over MaxArgumentBytes, with the error DecodeArguments
// gives (invalid-arguments, keyword maxBytes): an object on its length, a
// JSON string on the length of its decoded text, counted in one pass
// without decoding it (jsontext.UnquotedLen) and only when its literal is
// long enough to be over.
func argumentsSize(tool string, raw json.RawMessage) error {
	r := bytes.TrimSpace(raw)
	n := len(r)
	if n > MaxArgumentBytes && r[0] == '"' {
		n = jsontext.UnquotedLen(r)
	}
	if n <= MaxArgumentBytes {
		return nil
	}
	return limitError(tool, "maxBytes", "arguments are %d bytes of JSON, more than the limit of %d", n, MaxArgumentBytes)
}

// CheckSchemaBytes refuses a parameters schema of tool over MaxSchemaBytes
// with invalid-schema and an issue with keyword maxBytes: CompileSchema's
// first check, exported so that a caller holding the schema inside a
// larger payload can refuse it on its length before decoding the payload.
func CheckSchemaBytes(tool string, schema []byte) error {
	if len(schema) <= MaxSchemaBytes {
		return nil
	}
	return schemaIssueError(tool, "", "maxBytes",
		"parameters schema is "+strconv.Itoa(len(schema))+" bytes of JSON, more than the limit of "+strconv.Itoa(MaxSchemaBytes))
}
