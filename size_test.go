package toolgate

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

// maxFuncLines is the longest a Go function may be outside the parsers:
// past it a function holds more than one idea and wants splitting.
// scripts/check-size.mjs applies the same bound to the npm package's JS.
const maxFuncLines = 80

// parserDirs hold hand-written parsers, whose token-by-token functions are
// exempt from maxFuncLines (a parser's grammar reads best in one place):
// the JS function-header parser, and the JSON tokenizer of the validation
// fast path (jsontext.Tape.Parse, the JSON grammar in one loop).
var parserDirs = []string{"jsbridge/jsfunc/", "internal/jsontext/tape.go"}

// TestFunctionSize fails for a non-test Go function longer than
// maxFuncLines outside parserDirs.
func TestFunctionSize(t *testing.T) {
	fset := token.NewFileSet()
	for _, dir := range []string{"core", "provider", "mcp", "jsbridge", "internal", "cmd"} {
		for _, rel := range goFiles(t, dir) {
			if strings.HasSuffix(rel, "_test.go") || hasAnyPrefix(rel, parserDirs) {
				continue
			}
			f, err := parser.ParseFile(fset, rel, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range f.Decls {
				fn, ok := d.(*ast.FuncDecl)
				if !ok {
					continue
				}
				lines := fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1
				if lines > maxFuncLines {
					t.Errorf("%s: %s is %d lines, more than %d", rel, fn.Name.Name, lines, maxFuncLines)
				}
			}
		}
	}
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}
