// Package gostruct builds typed tools from Go functions that take a struct:
// the struct's JSON Schema (via invopop/jsonschema, the Go analogue of a
// Pydantic model's model_json_schema()) becomes the tool's parameters, so
// arguments are validated and normalised before the call, then decoded into
// the struct.
//
// It is apart from core so that the WebAssembly builds, which never reflect
// over Go structs, do not link invopop and what it pulls in (go/parser,
// go/doc, a YAML library).
//
//	type weather struct {
//		City string `json:"city"`
//		Days int    `json:"days,omitempty"`
//	}
//	tool, err := gostruct.Tool("forecast", func(ctx context.Context, in weather) (string, error) { … })
package gostruct
