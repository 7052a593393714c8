package jsfunc_test

import (
	"fmt"

	"github.com/toolgate/toolgate/jsbridge/jsfunc"
)

func ExampleParse() {
	src := `async function search(query, {limit = 10, ...filters} = {}) {
  /**
   * Search the index.
   *
   * Args:
   *   query: what to look for
   */
}`
	sig, err := jsfunc.Parse("search", src)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range sig.Params {
		fmt.Printf("%q %s default=%s\n", p.Name, p.Kind, p.Default)
		for _, f := range p.Fields {
			fmt.Printf("  field %q %s default=%s\n", f.Name, f.Kind, f.Default)
		}
	}
	fmt.Printf("%q\n", sig.Doc)

	_, err = jsfunc.Parse("push", "function push() { [native code] }")
	fmt.Println(err)
	// Output:
	// "query" plain default=
	// "" destructured default={}
	//   field "limit" plain default=10
	//   field "filters" keywords default=
	// "\nSearch the index.\n\nArgs:\n  query: what to look for\n"
	// invalid-tool (tool push): function "push" is native code: its source does not show its parameters; wrap it in a JS function
}
