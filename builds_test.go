package toolgate

import (
	"go/build/constraint"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The build checks of the whole module: which files build only for js/wasm,
// what the two wasm builds link, and what the internal packages import.

// goList runs `go list -deps` on pkg for js/wasm.
func goList(t *testing.T, pkg string, flags ...string) []string {
	t.Helper()
	cmd := exec.Command("go", append(append([]string{"list", "-deps"}, flags...), pkg)...)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list %s: %v\n%s", pkg, err, out)
	}
	return strings.Fields(string(out))
}

// TestCoreBuildLinksNoNetwork guards the two-build promise: toolgate-core.wasm
// links neither the mcp package (nor mcp-go) nor net/http nor crypto/tls,
// while the full build does link mcp, but neither net/http nor crypto/tls
// or crypto/x509 (its HTTP is jsbridge/fetch over internal/wire), nor any
// of mcp-go's client, transport or server packages nor what they pull in
// (santhosh jsonschema v6, x/text/message), nor the official Go SDK (a test
// peer);
// and neither build links the Go-struct schema derivation (core/gostruct,
// invopop).
func TestCoreBuildLinksNoNetwork(t *testing.T) {
	for _, d := range goList(t, "./cmd/wasm/core") {
		if d == "net/http" || strings.HasPrefix(d, "net/http/") || d == "crypto/tls" || d == "github.com/toolgate/toolgate/mcp" ||
			strings.HasPrefix(d, "github.com/mark3labs/") || d == "github.com/toolgate/toolgate/jsbridge/mcpops" {
			t.Errorf("the core build links %s", d)
		}
	}
	for _, build := range []string{"./cmd/wasm/core", "./cmd/wasm/full"} {
		for _, d := range goList(t, build) {
			if strings.HasPrefix(d, "github.com/invopop/") || d == "github.com/toolgate/toolgate/core/gostruct" || d == "go/parser" {
				t.Errorf("%s links %s: Go-struct schemas are for Go programs, not the wasm builds", build, d)
			}
		}
	}
	for _, d := range goList(t, "./cmd/wasm/full") {
		if d == "net/http" || strings.HasPrefix(d, "net/http/") || d == "crypto/tls" || d == "crypto/x509" ||
			d == "github.com/toolgate/toolgate/internal/wire/nethttp" {
			t.Errorf("the full build links %s: its HTTP goes through jsbridge/fetch over internal/wire, not net/http", d)
		}
		// The OAuth client assertion is signed by WebCrypto in JS
		// (mcp/oauth/token_jwt_js.go): the key parser and the signature
		// packages, about 400 KB compressed, stay out of the download.
		if d == "crypto/ecdsa" || d == "crypto/rsa" {
			t.Errorf("the full build links %s: private_key_jwt is signed through the host (npm/lib/jws.js)", d)
		}
		if strings.HasPrefix(d, "github.com/mark3labs/mcp-go/client") || d == "github.com/mark3labs/mcp-go/server" ||
			strings.HasPrefix(d, "github.com/modelcontextprotocol/go-sdk") ||
			d == "github.com/santhosh-tekuri/jsonschema/v6" || d == "golang.org/x/text/message" {
			t.Errorf("the full build links %s: the MCP session layer is mcp/session.go", d)
		}
	}
	full := strings.Join(goList(t, "./cmd/wasm/full"), " ")
	if !strings.Contains(full, "github.com/toolgate/toolgate/mcp") {
		t.Errorf("the full build does not link the mcp package")
	}
}

// coreBuildDrops are the standard packages the core build (as the Makefile
// builds it, with the remote validator) once linked and no longer does,
// each with what replaced it; docs/speed.md has what each removal saved.
// A prefix ends in "/".
var coreBuildDrops = map[string]string{
	"crypto/":   "internal/sha256 for hashed names, the runtime's ChaCha8 for the UUID seed",
	"math/big":  "exact decimals of its own (core/fastpath_number.go, core/fastpath_remainder.go) and strconv's hexadecimal floats (jsbridge/jsfunc)",
	"math/rand": "nothing: math/big brought it",
}

// TestCoreBuildStaysLight keeps each removal from the core build removed.
func TestCoreBuildStaysLight(t *testing.T) {
	for _, d := range goList(t, "./cmd/wasm/core", "-tags", "toolgate_remote_validator") {
		for drop, instead := range coreBuildDrops {
			if d == strings.TrimSuffix(drop, "/") || strings.HasSuffix(drop, "/") && strings.HasPrefix(d, drop) {
				t.Errorf("the core build links %s again: it uses %s", d, instead)
			}
		}
	}
}

// wasmOnly are the files that build only for js/wasm (`//go:build js &&
// wasm`): the ones that touch syscall/js, the main packages, and the
// //go:wasmexport buffer protocol (internal/wasmbuf).
// Every other Go file under jsbridge/ and cmd/wasm/ is pure: it builds and
// is tested natively and does not import syscall/js. A new file is one or
// the other by a decision written here.
var wasmOnly = []string{
	"jsbridge/wasm_exports.go",
	"jsbridge/host_js.go",
	"jsbridge/fetch/transport.go",
	"jsbridge/mcpops/yield_js.go",
	"cmd/wasm/*/*.go",
	"internal/wasmbuf/wasmbuf.go",
}

// isWasmOnly reports whether rel (slash-separated, from the module root)
// is listed in wasmOnly.
func isWasmOnly(rel string) bool {
	for _, p := range wasmOnly {
		if ok, _ := path.Match(p, rel); ok {
			return true
		}
	}
	return false
}

func TestIsWasmOnly(t *testing.T) {
	for rel, want := range map[string]bool{
		"jsbridge/wasm_exports.go": true, "jsbridge/fetch/transport.go": true, "cmd/wasm/core/main.go": true,
		"jsbridge/bridge.go": false, "jsbridge/jsfunc/parse.go": false, "jsbridge/mcpops/ops.go": false,
		"jsbridge/fetch/doc.go": false, "jsbridge/x_test.go": false,
	} {
		if got := isWasmOnly(rel); got != want {
			t.Errorf("isWasmOnly(%s) = %v, want %v", rel, got, want)
		}
	}
}

// buildConstraint returns the //go:build expression of a Go file, or "".
func buildConstraint(t *testing.T, file string) string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "package ") {
			break
		}
		if constraint.IsGoBuild(line) {
			expr, err := constraint.Parse(line)
			if err != nil {
				t.Fatalf("%s: %s: %v", file, line, err)
			}
			return expr.String()
		}
	}
	return ""
}

// importsOf parses the imports of one Go file.
func importsOf(t *testing.T, file string) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, im := range f.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		out = append(out, p)
	}
	return out
}

// goFiles lists the Go files under dir, slash-separated from the root.
func goFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") {
			out = append(out, filepath.ToSlash(p))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestWasmBuildTags checks that the files listed in wasmOnly carry
// `//go:build js && wasm` and every other file under jsbridge/, cmd/wasm/
// and provider/ carries no constraint and does not import syscall/js.
func TestWasmBuildTags(t *testing.T) {
	syscallJS := "syscall" + "/js"
	for _, dir := range []string{"jsbridge", "cmd/wasm", "internal/wasmbuf", "provider"} {
		for _, rel := range goFiles(t, dir) {
			tag := buildConstraint(t, rel)
			if isWasmOnly(rel) {
				if tag != "js && wasm" {
					t.Errorf("%s is listed as js/wasm-only but carries %q, want //go:build js && wasm", rel, tag)
				}
				continue
			}
			if tag != "" {
				t.Errorf("%s is pure (not in wasmOnly) but carries //go:build %s", rel, tag)
			}
			for _, im := range importsOf(t, rel) {
				if im == syscallJS {
					t.Errorf("%s is pure but imports syscall/js: tag it and list it in wasmOnly", rel)
				}
			}
		}
	}
}

// testOnly are the internal packages only tests import (they may use
// testing and testify); every other internal package is linked into the
// builds and imports only the standard library and other internal packages.
var testOnly = map[string]bool{"internal/fixture": true}

// TestInternalImports checks that the module's internal packages that the
// builds link import only the standard library and each other (their tests
// may use testify), and that no non-test file imports a test-only one.
func TestInternalImports(t *testing.T) {
	files := goFiles(t, "internal")
	if len(files) == 0 {
		t.Fatal("no files under internal/")
	}
	for _, rel := range files {
		pkg := path.Dir(rel)
		for _, im := range importsOf(t, rel) {
			first, _, _ := strings.Cut(im, "/")
			if !strings.Contains(first, ".") {
				continue // the standard library
			}
			if strings.HasPrefix(im, "github.com/toolgate/toolgate/internal/") {
				continue // another internal package (internal/wire/nethttp adapts net/http to internal/wire)
			}
			if (strings.HasSuffix(rel, "_test.go") || testOnly[pkg]) && strings.HasPrefix(im, "github.com/stretchr/testify/") {
				continue
			}
			t.Errorf("%s imports %s: internal packages import only the standard library", rel, im)
		}
	}
	for _, dir := range []string{"core", "provider", "mcp", "jsbridge", "internal", "cmd"} {
		for _, rel := range goFiles(t, dir) {
			if strings.HasSuffix(rel, "_test.go") {
				continue
			}
			for _, im := range importsOf(t, rel) {
				if testOnly[strings.TrimPrefix(im, "github.com/toolgate/toolgate/")] {
					t.Errorf("%s imports %s, which only tests may import", rel, im)
				}
			}
		}
	}
}

// The module path, core's and provider's import paths, and syscall/js
// (spelled in parts, as TestWasmBuildTags spells it).
const (
	modulePath   = "github.com/toolgate/toolgate"
	corePath     = modulePath + "/core"
	providerPkg  = modulePath + "/provider"
	pkgSyscallJS = "syscall" + "/js"
)

// providerImportProblem says why a file of provider (a test file when test)
// may not import p, or "": provider builds on core and internal/ only, so
// the imports point one way (core never imports provider:
// core/imports_test.go). Its tests may also use testify, internal/fixture
// and, as package provider_test, provider itself.
func providerImportProblem(p string, test bool) string {
	first, _, _ := strings.Cut(p, "/")
	switch {
	case p == pkgSyscallJS || p == "net/http" || strings.HasPrefix(p, "net/http/"):
		return "provider is pure Go and links no network"
	case !strings.Contains(first, "."):
		return "" // the standard library
	case p == corePath:
		return ""
	case strings.HasPrefix(p, modulePath+"/internal/"):
		if testOnly[strings.TrimPrefix(p, modulePath+"/")] && !test {
			return "only tests may import it"
		}
		return ""
	case test && (p == providerPkg || strings.HasPrefix(p, "github.com/stretchr/testify/")):
		return ""
	}
	return "provider imports only the standard library, core and internal/"
}

func TestProviderImportProblem(t *testing.T) {
	for _, tc := range []struct {
		path      string
		test, bad bool
	}{
		{"encoding/json", false, false}, {corePath, false, false}, {modulePath + "/internal/jsontext", false, false},
		{modulePath + "/internal/fixture", false, true}, {modulePath + "/internal/fixture", true, false},
		{modulePath + "/mcp", false, true}, {modulePath + "/jsbridge", false, true}, {modulePath + "/mcp", true, true},
		{"github.com/stretchr/testify/require", false, true}, {"github.com/stretchr/testify/require", true, false},
		{"github.com/santhosh-tekuri/jsonschema/v5", false, true}, {"net/http", false, true}, {pkgSyscallJS, false, true},
		{providerPkg, true, false},
	} {
		if got := providerImportProblem(tc.path, tc.test); (got != "") != tc.bad {
			t.Errorf("providerImportProblem(%s, test %v) = %q, want a problem: %v", tc.path, tc.test, got, tc.bad)
		}
	}
}

// TestProviderImports keeps the direction core ← provider: every file of
// provider imports only what providerImportProblem allows, and what the
// package links, natively and for js/wasm, holds no toolgate package but
// core and internal/, no net/http, and natively no syscall/js. Both wasm
// builds may link provider (jsbridge's export and result operations do).
func TestProviderImports(t *testing.T) {
	files := goFiles(t, "provider")
	if len(files) == 0 {
		t.Fatal("no files under provider/")
	}
	for _, rel := range files {
		for _, im := range importsOf(t, rel) {
			if why := providerImportProblem(im, strings.HasSuffix(rel, "_test.go")); why != "" {
				t.Errorf("%s imports %s: %s", rel, im, why)
			}
		}
	}
	for _, env := range [][]string{nil, {"GOOS=js", "GOARCH=wasm"}} {
		cmd := exec.Command("go", "list", "-deps", "./provider")
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go list %v ./provider: %v\n%s", env, err, out)
		}
		for _, d := range strings.Fields(string(out)) {
			if d == "net/http" || strings.HasPrefix(d, "net/http/") || env == nil && d == pkgSyscallJS {
				t.Errorf("provider links %s (%v)", d, env)
			}
			if strings.HasPrefix(d, modulePath+"/") && d != corePath && d != providerPkg && !strings.HasPrefix(d, modulePath+"/internal/") {
				t.Errorf("provider links %s (%v): it builds on core and internal/ only", d, env)
			}
		}
	}
}
