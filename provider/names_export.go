package provider

import (
	"fmt"

	"github.com/toolgate/toolgate/core"
)

// exportNames returns the exported name of each item under rule, in order,
// and the change of each item whose name was rewritten, by index:
// a name that fits is kept; one that does not is rewritten (NameRule.Rewrite)
// and reported. Names kept as they are come first, so a rewritten name
// never takes the place of a tool's own name: a rewritten name that meets
// a name already taken is rewritten again with the hash of the name and a
// counter ("#2", "#3", …), deterministically, and the collision reported.
// Two items with one registered name are refused with duplicate-tool.
func exportNames(items []exported, rule NameRule) ([]string, map[int]Change, error) {
	out := make([]string, len(items))
	taken := make(map[string]bool, len(items))
	registered := make(map[string]bool, len(items))
	for i, it := range items {
		name := it.tool.Function()
		if registered[name] {
			return nil, nil, core.Errorf(core.CodeDuplicateTool, name, "the export holds two tools named %s", name)
		}
		registered[name] = true
		if rule.Valid(name) {
			out[i] = name
			taken[name] = true
		}
	}
	changes := map[int]Change{}
	for i, it := range items {
		if out[i] != "" {
			continue
		}
		name := it.tool.Function()
		got := rule.Rewrite(name)
		msg := fmt.Sprintf("the name %q breaks the target's name rule; it is exported as %q", name, got)
		for n := 2; taken[got]; n++ {
			got = rule.plain(name, hashSuffix(fmt.Sprintf("%s#%d", name, n)))
			msg = fmt.Sprintf("the name %q breaks the target's name rule and its rewrite meets another tool's name; it is exported as %q", name, got)
		}
		out[i] = got
		taken[got] = true
		changes[i] = Change{Tool: name, Kind: ChangeNameRewritten, Keyword: "name", Message: msg}
	}
	return out, changes, nil
}
