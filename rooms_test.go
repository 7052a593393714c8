package toolgate

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestTheMapNamesEveryRoom keeps docs/architecture.md true: every Go
// package (natively and under js/wasm) and every JS module of npm/lib that
// git tracks must be named, in backticks, in its tables. A room added
// without its line fails here.
func TestTheMapNamesEveryRoom(t *testing.T) {
	doc, err := os.ReadFile("docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	named := map[string]bool{}
	for _, m := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(string(doc), -1) {
		named[strings.TrimSuffix(m[1], "/")] = true
	}
	for _, dir := range packageDirs(t) {
		if !named[dir] {
			t.Errorf("docs/architecture.md does not name the Go package %s (a row of the rooms table)", dir)
		}
	}
	out, err := exec.Command("git", "ls-files", "npm/lib").Output()
	if err != nil {
		t.Skipf("git ls-files: %v", err)
	}
	for _, f := range strings.Fields(string(out)) {
		if filepath.Ext(f) != ".js" {
			continue
		}
		if rel := strings.TrimPrefix(f, "npm/lib/"); !named[rel] {
			t.Errorf("docs/architecture.md does not name the JS module %s (a row of the npm/lib table)", rel)
		}
	}
}

// packageDirs lists the module's Go packages, relative to the root, for
// both targets.
func packageDirs(t *testing.T) []string {
	t.Helper()
	seen := map[string]bool{}
	var dirs []string
	for _, env := range [][]string{nil, {"GOOS=js", "GOARCH=wasm"}} {
		cmd := exec.Command("go", "list", "-f", "{{.Dir}}", "./...")
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list: %v", err)
		}
		root, _ := os.Getwd()
		for _, d := range strings.Fields(string(out)) {
			rel, err := filepath.Rel(root, d)
			if err != nil || rel == "." || seen[rel] {
				continue
			}
			seen[rel] = true
			dirs = append(dirs, filepath.ToSlash(rel))
		}
	}
	return dirs
}
