// Package jsontext reads and writes JSON text at the byte level, for the
// hot paths of toolgate that must not pay for encoding/json's reflection
// (under WebAssembly it dominates a call): splitting an object into its raw
// members, measuring nesting, decoding text that is already known to be
// valid, scanning number literals exactly, naming JSON types for messages,
// writing strings without HTML escaping, and JSON pointers.
//
// It is internal: core, mcp and jsbridge share it, and it imports only the
// standard library. Nothing here returns toolgate errors; callers turn a
// false or an error into their own *core.Error.
//
// Every function that takes text either validates it (Split, Lookup) or
// says in its comment that the text must already be valid (ParseValid,
// EndOfValue); none of them panics on text json.Valid accepts.
package jsontext
