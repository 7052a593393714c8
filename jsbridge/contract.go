package jsbridge

import (
	"reflect"
	"strings"
	"sync"
)

// Options lists the option names of one JS call: those Go reads, and those
// JS keeps to itself (functions and their arguments, which never cross). JS
// refuses any other key, naming the call; Go refuses a key it does not read.
// cmd/gen-contract writes these lists into the npm package, so the names are
// spelled once, here.
type Options struct {
	Go     []string `json:"go"`
	JSOnly []string `json:"jsOnly"`
}

// All returns every option name, those Go reads first.
func (o Options) All() []string {
	return append(append([]string(nil), o.Go...), o.JSOnly...)
}

// ToolOptions returns the options of tg.tool(fn, options): Go reads the
// fields of toolSpecOptions (in their order); the processors and their
// kwargs, and the approval options, stay in JS, which runs them. Built on first use (by
// cmd/gen-contract), not at the module's start.
var ToolOptions = sync.OnceValue(func() Options {
	return Options{
		Go:     jsonNames(reflect.TypeFor[toolSpecOptions]()),
		JSOnly: []string{"preprocessor", "preprocessorKwargs", "postprocessor", "postprocessorKwargs", "requireApproval", "approve", "approvalTimeoutMs", "toModelOutput"},
	}
})

// TypedToolOptions returns the keys of tg.tool({name, parameters, handler,
// …}): the tool options and the handler, which stays in JS.
func TypedToolOptions() Options {
	o := ToolOptions()
	return Options{Go: o.Go, JSOnly: append([]string{"handler"}, o.JSOnly...)}
}

// jsonNames lists the JSON names of a struct's fields, in order.
func jsonNames(t reflect.Type) []string {
	var out []string
	for i := 0; i < t.NumField(); i++ {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			out = append(out, name)
		}
	}
	return out
}
