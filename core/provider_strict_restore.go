package core

import "fmt"

// Apply returns args without the nulls strict mode introduced: a null given
// for a property the transform made nullable is removed, at the top level
// and in nested objects, array items, union branches and referenced
// definitions; every other value, null or not, is kept as it is. A union
// branch is chosen by the value's shape (the key set of a closed object, or
// an array): the transform refuses a union whose branches cannot be told
// apart that way. A nil receiver, or nil args, returns args unchanged;
// otherwise the result is a new Arguments that shares unchanged nested
// values with args.
func (r *StrictRestore) Apply(args *Arguments) *Arguments {
	if r == nil || args == nil || len(r.nodes) == 0 {
		return args
	}
	root := &r.nodes[0]
	out := &Arguments{Keys: make([]string, 0, args.Len()), Values: make(map[string]any, args.Len())}
	for _, k := range args.orderedKeys() {
		v := args.Values[k]
		if v == nil && root.nulled[k] {
			continue
		}
		if c, ok := root.props[k]; ok {
			v = r.value(c, v, 1)
		}
		out.Keys = append(out.Keys, k)
		out.Values[k] = v
	}
	return out
}

// value restores one value under node id. It copies only what changes.
func (r *StrictRestore) value(id int32, v any, depth int) any {
	if depth > MaxArgumentDepth {
		return v
	}
	n := r.resolve(id)
	if n == nil || !n.needs {
		return v
	}
	if len(n.anyOf) > 0 {
		if b := r.branch(n, v, 0); b >= 0 {
			return r.value(b, v, depth+1)
		}
		return v
	}
	switch x := v.(type) {
	case map[string]any:
		if n.isObject {
			return r.object(n, x, depth)
		}
	case []any:
		if n.isArray && n.items >= 0 {
			return r.array(n.items, x, depth)
		}
	}
	return v
}

func (r *StrictRestore) object(n *strictNode, m map[string]any, depth int) any {
	var out map[string]any
	for k, v := range m {
		nv, drop := v, v == nil && n.nulled[k]
		if c, ok := n.props[k]; ok && !drop {
			nv = r.value(c, v, depth+1)
		}
		if !drop && sameValue(nv, v) {
			continue
		}
		if out == nil {
			out = make(map[string]any, len(m))
			for k2, v2 := range m {
				out[k2] = v2
			}
		}
		if drop {
			delete(out, k)
		} else {
			out[k] = nv
		}
	}
	if out == nil {
		return m
	}
	return out
}

func (r *StrictRestore) array(items int32, list []any, depth int) any {
	var out []any
	for i, v := range list {
		nv := r.value(items, v, depth+1)
		if sameValue(nv, v) {
			continue
		}
		if out == nil {
			out = append([]any(nil), list...)
		}
		out[i] = nv
	}
	if out == nil {
		return list
	}
	return out
}

// sameValue reports whether value restoring returned v itself: maps and
// slices by identity, scalars by value.
func sameValue(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		return ok && fmt.Sprintf("%p", x) == fmt.Sprintf("%p", y)
	case []any:
		y, ok := b.([]any)
		return ok && len(x) == len(y) && (len(x) == 0 || &x[0] == &y[0])
	}
	return true
}

// resolve follows $ref links (at most once around every node).
func (r *StrictRestore) resolve(id int32) *strictNode {
	for i := 0; i <= len(r.nodes); i++ {
		if id < 0 || int(id) >= len(r.nodes) {
			return nil
		}
		n := &r.nodes[id]
		if n.ref < 0 {
			return n
		}
		id = n.ref
	}
	return nil
}

// branch returns the anyOf branch of n whose shape v has: a closed object
// with exactly v's keys, or an array. Nested unions are searched.
func (r *StrictRestore) branch(n *strictNode, v any, depth int) int32 {
	if depth > MaxSchemaDepth {
		return -1
	}
	for _, b := range n.anyOf {
		bn := r.resolve(b)
		if bn == nil {
			continue
		}
		if len(bn.anyOf) > 0 {
			if r.branch(bn, v, depth+1) >= 0 {
				return b
			}
			continue
		}
		switch x := v.(type) {
		case map[string]any:
			if bn.isObject && hasExactKeys(bn.keys, x) {
				return b
			}
		case []any:
			if bn.isArray {
				return b
			}
		}
	}
	return -1
}

func hasExactKeys(keys []string, m map[string]any) bool {
	if len(keys) != len(m) {
		return false
	}
	for _, k := range keys {
		if _, ok := m[k]; !ok {
			return false
		}
	}
	return true
}

// markNeeds sets needs on every node at or below which a null may be
// removed, to a fixed point (references may form cycles).
func (r *StrictRestore) markNeeds() {
	for changed := true; changed; {
		changed = false
		for i := range r.nodes {
			n := &r.nodes[i]
			if n.needs {
				continue
			}
			if len(n.nulled) > 0 || r.childNeeds(n) {
				n.needs, changed = true, true
			}
		}
	}
}

func (r *StrictRestore) childNeeds(n *strictNode) bool {
	ids := append([]int32{n.ref, n.items}, n.anyOf...)
	for _, c := range n.props {
		ids = append(ids, c)
	}
	for _, c := range ids {
		if c >= 0 && int(c) < len(r.nodes) && r.nodes[c].needs {
			return true
		}
	}
	return false
}

// ambiguousUnion returns a refusal for the first union two of whose
// branches have the same shape (the same object key set, or both arrays)
// while one of them has nulls to remove: Apply could not tell which
// branch's nulls a value carries.
func (w *strictWalk) ambiguousUnion(r *StrictRestore) *Change {
	for _, u := range w.unions {
		seen := map[string]bool{}
		shapes := r.shapes(&r.nodes[u.id], nil, 0)
		needy := false
		for _, s := range shapes {
			needy = needy || s.needs
		}
		if !needy {
			continue
		}
		for _, s := range shapes {
			if seen[s.key] {
				return &Change{Tool: w.tool, Path: pointerTo(u.path, "anyOf"), Kind: ChangeStrictRefused, Keyword: "anyOf",
					Message: "strict mode cannot express this schema: two branches of this anyOf have the same shape, and the nulls strict mode adds to one could not be told from the other's values"}
			}
			seen[s.key] = true
		}
	}
	return nil
}

type unionShape struct {
	key   string
	needs bool
}

// shapes lists the shapes of a union's branches, nested unions flattened.
func (r *StrictRestore) shapes(n *strictNode, out []unionShape, depth int) []unionShape {
	if depth > MaxSchemaDepth {
		return out
	}
	for _, b := range n.anyOf {
		bn := r.resolve(b)
		if bn == nil {
			continue
		}
		if len(bn.anyOf) > 0 {
			out = r.shapes(bn, out, depth+1)
			continue
		}
		if bn.isObject {
			out = append(out, unionShape{key: "object:" + keySet(bn.keys), needs: bn.needs})
		}
		if bn.isArray {
			out = append(out, unionShape{key: "array", needs: bn.needs})
		}
	}
	return out
}
