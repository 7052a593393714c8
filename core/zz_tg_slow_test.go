package core
import ("testing";"os";"path/filepath";"strings";"strconv";"time";"fmt";"encoding/json";"bytes")
func TestZZTGSlow(t *testing.T){
	for _, target := range []string{"FuzzValidate","FuzzDecodeArguments"} {
	dir := filepath.Join(os.Getenv("HOME"), ".cache/go-build/fuzz/github.com/toolgate/toolgate/core", target)
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")[1:]
		var args [][]byte
		for _, l := range lines { s, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(l, "[]byte("), ")")); if err != nil { t.Fatal(err) }; args = append(args, []byte(s)) }
		t0 := time.Now()
		if target == "FuzzValidate" {
			cs, err := compileSchemaDoc("f", args[0])
			if err == nil { dec := json.NewDecoder(bytes.NewReader(args[1])); dec.UseNumber(); var v any; if dec.Decode(&v) == nil { cs.validateValue("f", v) } }
		} else { DecodeArguments("f", args[0]) }
		if d := time.Since(t0); d > 5*time.Millisecond { fmt.Println(target, e.Name(), d, len(args[0])) }
	}
	}
}
