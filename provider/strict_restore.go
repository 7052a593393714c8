package provider

import "github.com/toolgate/toolgate/core"

// Apply returns args without the nulls strict mode introduced: a null given
// for a property the transform made nullable is removed, at the top level
// and in nested objects, array items, union branches and referenced
// definitions; every other value, null or not, is kept as it is. A union
// branch is chosen by the value's shape (the key set of a closed object, or
// an array): the transform refuses a union whose branches cannot be told
// apart that way. A nil receiver, or nil args, returns args unchanged;
// otherwise the result is a new Arguments that shares unchanged nested
// values with args.
func (r *StrictRestore) Apply(args *core.Arguments) *core.Arguments {
	if r == nil || args == nil || len(r.nodes) == 0 {
		return args
	}
	root := &r.nodes[0]
	out := &core.Arguments{Keys: make([]string, 0, args.Len()), Values: make(map[string]any, args.Len())}
	for _, k := range args.OrderedKeys() {
		v := args.Values[k]
		if v == nil && root.nulled[k] {
			continue
		}
		if c, ok := root.props[k]; ok {
			v, _ = r.value(c, v, 1)
		}
		out.Keys = append(out.Keys, k)
		out.Values[k] = v
	}
	return out
}

// value restores one value under node id, reporting whether it changed.
// It copies only what changes.
func (r *StrictRestore) value(id int32, v any, depth int) (any, bool) {
	if depth > core.MaxArgumentDepth {
		return v, false
	}
	n := r.resolve(id)
	if n == nil || !n.needs {
		return v, false
	}
	if len(n.anyOf) > 0 {
		if b := r.branch(n, v); b >= 0 {
			return r.value(b, v, depth+1)
		}
		return v, false
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
	return v, false
}

func (r *StrictRestore) object(n *strictNode, m map[string]any, depth int) (any, bool) {
	var out map[string]any
	for k, v := range m {
		nv, changed := v, v == nil && n.nulled[k]
		if c, ok := n.props[k]; ok && !changed {
			nv, changed = r.value(c, v, depth+1)
		}
		if !changed {
			continue
		}
		if out == nil {
			out = make(map[string]any, len(m))
			for k2, v2 := range m {
				out[k2] = v2
			}
		}
		if v == nil && n.nulled[k] {
			delete(out, k)
		} else {
			out[k] = nv
		}
	}
	if out == nil {
		return m, false
	}
	return out, true
}

func (r *StrictRestore) array(items int32, list []any, depth int) (any, bool) {
	var out []any
	for i, v := range list {
		nv, changed := r.value(items, v, depth+1)
		if !changed {
			continue
		}
		if out == nil {
			out = append([]any(nil), list...)
		}
		out[i] = nv
	}
	if out == nil {
		return list, false
	}
	return out, true
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
// with exactly v's keys, or an array. Nested unions are searched, each node
// once; the answer is the branch of n that holds the matching one.
func (r *StrictRestore) branch(n *strictNode, v any) int32 {
	found := int32(-1)
	r.unionLeaves(n, map[int32]bool{}, -1, func(top int32, leaf *strictNode) bool {
		switch x := v.(type) {
		case map[string]any:
			if leaf.isObject && hasExactKeys(leaf.keys, x) {
				found = top
			}
		case []any:
			if leaf.isArray {
				found = top
			}
		}
		return found < 0
	})
	return found
}

// unionLeaves calls yield with each branch of n's union that is not itself
// a union, nested unions flattened and each node visited once, in order,
// with top, the branch of the outermost union that holds it (-1 at the
// first call); it stops, and returns false, when yield does.
func (r *StrictRestore) unionLeaves(n *strictNode, seen map[int32]bool, top int32, yield func(top int32, leaf *strictNode) bool) bool {
	for _, b := range n.anyOf {
		bn := r.resolve(b)
		if bn == nil || seen[b] {
			continue
		}
		seen[b] = true
		t := top
		if t < 0 {
			t = b
		}
		if len(bn.anyOf) > 0 {
			if !r.unionLeaves(bn, seen, t, yield) {
				return false
			}
			continue
		}
		if !yield(t, bn) {
			return false
		}
	}
	return true
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
// removed: from each node with nulled properties up through every node
// that leads to it (references may form cycles), each node once.
func (r *StrictRestore) markNeeds() {
	parents := make([][]int32, len(r.nodes))
	var queue []int32
	for i := range r.nodes {
		n := &r.nodes[i]
		for _, c := range n.children() {
			if c >= 0 && int(c) < len(r.nodes) {
				parents[c] = append(parents[c], int32(i))
			}
		}
		if len(n.nulled) > 0 {
			n.needs = true
			queue = append(queue, int32(i))
		}
	}
	for len(queue) > 0 {
		c := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		for _, p := range parents[c] {
			if !r.nodes[p].needs {
				r.nodes[p].needs = true
				queue = append(queue, p)
			}
		}
	}
}

// children lists the nodes n leads to.
func (n *strictNode) children() []int32 {
	ids := append([]int32{n.ref, n.items}, n.anyOf...)
	for _, c := range n.props {
		ids = append(ids, c)
	}
	return ids
}

// ambiguousUnion returns a refusal for the first union two of whose
// branches have the same shape (the same object key set, or both arrays)
// while one of them has nulls to remove: Apply could not tell which
// branch's nulls a value carries.
func (w *strictWalk) ambiguousUnion(r *StrictRestore) *Change {
	for _, u := range w.unions {
		seen := map[string]bool{}
		shapes := r.shapes(&r.nodes[u.id])
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

// shapes lists the shapes of a union's branches, nested unions flattened
// (each node once).
func (r *StrictRestore) shapes(n *strictNode) []unionShape {
	var out []unionShape
	r.unionLeaves(n, map[int32]bool{}, -1, func(_ int32, leaf *strictNode) bool {
		if leaf.isObject {
			out = append(out, unionShape{key: "object:" + keySet(leaf.keys), needs: leaf.needs})
		}
		if leaf.isArray {
			out = append(out, unionShape{key: "array", needs: leaf.needs})
		}
		return true
	})
	return out
}
