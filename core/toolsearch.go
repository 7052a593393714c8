package core

import (
	"bytes"
	"encoding/json"
	"math"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/toolgate/toolgate/internal/jsontext"
)

// SearchHit is one tool a search found: its name, description and
// parameter names (in the schema's order), as the model reads them.
type SearchHit struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Parameters  []string `json:"parameters"`
}

// MaxSearchLimit is the most hits one search returns; DefaultSearchLimit
// is how many it returns when no limit is given.
const (
	MaxSearchLimit     = 50
	DefaultSearchLimit = 5
)

// SearchTools ranks the deferred tools of the registry (revealed or not)
// against query with BM25 over the words of each tool's name (split on _,
// -, ., spaces and camelCase; counted twice), description and parameter
// names, and returns the best limit of them (0: DefaultSearchLimit; at
// most MaxSearchLimit). Equal scores are ordered by name, so the same
// catalog and query always give the same list. With reveal, the hits are
// revealed: later exports include them. A tool no query word matches is
// never returned. It refuses an empty query and a negative limit
// (invalid-arguments, naming the field).
func (m *Manager) SearchTools(query string, limit int, reveal bool) ([]SearchHit, error) {
	if strings.TrimSpace(query) == "" {
		return nil, searchRefusal("query", "the search query must not be empty")
	}
	if limit < 0 {
		return nil, searchRefusal("limit", "the search limit must not be negative")
	}
	if limit == 0 {
		limit = DefaultSearchLimit
	}
	limit = min(limit, MaxSearchLimit)
	idx := m.searchIndex()
	hits := idx.search(searchWords(query), limit)
	if reveal && len(hits) > 0 {
		names := make([]string, len(hits))
		for i, h := range hits {
			names[i] = h.Name
		}
		m.Defer(DeferOptions{Reveal: names})
	}
	return hits, nil
}

func searchRefusal(field, msg string) *Error {
	return &Error{Code: CodeInvalidArguments, Message: msg, Issues: []Issue{{Path: "/" + field, Keyword: field, Message: msg}}}
}

// searchIndex returns the index of the current deferred tools, built again
// when the registry or its deferrals changed since the last one. A tool
// indexed before, with the same schema, keeps its entry (its words are
// not read again).
func (m *Manager) searchIndex() *searchIndex {
	m.mu.RLock()
	d := m.defers
	if d == nil {
		m.mu.RUnlock()
		return &searchIndex{}
	}
	if idx := d.index; idx != nil && idx.version == m.version && idx.gen == d.gen {
		m.mu.RUnlock()
		return idx
	}
	var tools []*Tool
	for _, n := range m.names {
		if t := m.tools[n]; d.deferred(t) {
			tools = append(tools, t)
		}
	}
	version, gen, old := m.version, d.gen, d.index
	m.mu.RUnlock()
	idx := buildSearchIndex(tools, old)
	idx.version, idx.gen = version, gen
	m.mu.Lock()
	d.index = idx
	m.mu.Unlock()
	return idx
}

// searchEntry is one indexed tool: what a hit shows, its words with
// their weights, and the schema they were read from.
type searchEntry struct {
	hit    SearchHit
	words  []weighted
	length float64
	schema json.RawMessage
}

type weighted struct {
	word string
	tf   float64
}

type posting struct {
	doc int
	tf  float64
}

// searchIndex is BM25's inverted index over the deferred tools.
type searchIndex struct {
	docs     []*searchEntry
	entries  map[*Tool]*searchEntry
	postings map[string][]posting
	avg      float64
	version  uint64
	gen      uint64
}

// sameBytes reports whether a and b are the same slice (not a copy).
func sameBytes(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

func buildSearchIndex(tools []*Tool, old *searchIndex) *searchIndex {
	idx := &searchIndex{postings: map[string][]posting{}, entries: make(map[*Tool]*searchEntry, len(tools)), docs: make([]*searchEntry, 0, len(tools))}
	total := 0.0
	for _, t := range tools {
		e := old.entry(t)
		if e == nil {
			e = newSearchEntry(t)
		}
		idx.entries[t] = e
		n := len(idx.docs)
		for _, w := range e.words {
			idx.postings[w.word] = append(idx.postings[w.word], posting{doc: n, tf: w.tf})
		}
		idx.docs = append(idx.docs, e)
		total += e.length
	}
	if len(idx.docs) > 0 {
		idx.avg = total / float64(len(idx.docs))
	}
	return idx
}

// entry returns t's entry in an earlier index when its schema is the same.
func (idx *searchIndex) entry(t *Tool) *searchEntry {
	if idx == nil {
		return nil
	}
	if e := idx.entries[t]; e != nil && sameBytes(e.schema, t.Schema) {
		return e
	}
	return nil
}

// newSearchEntry reads a tool's words: its name's twice, then its
// description's and its parameter names'.
func newSearchEntry(t *Tool) *searchEntry {
	e := &searchEntry{hit: hitOf(t), schema: t.Schema}
	add := func(words []string, weight float64) {
	next:
		for _, w := range words {
			e.length += weight
			for i := range e.words {
				if e.words[i].word == w {
					e.words[i].tf += weight
					continue next
				}
			}
			e.words = append(e.words, weighted{w, weight})
		}
	}
	add(searchWords(e.hit.Name), 2)
	add(searchWords(e.hit.Description), 1)
	for _, p := range e.hit.Parameters {
		add(searchWords(p), 1)
	}
	return e
}

// hitOf reads a tool's name, description and parameter names; the schema
// is validated once, its members then split without validating again.
func hitOf(t *Tool) SearchHit {
	h := SearchHit{Name: t.Function(), Parameters: []string{}}
	top, ok := jsontext.Split(bytes.TrimSpace(t.Schema))
	if !ok {
		return h
	}
	for _, m := range memberOf(top, "function") {
		switch m.Key {
		case "description":
			if jsontext.Kind(m.Value) == jsontext.String {
				h.Description = jsontext.Unquote(bytes.TrimSpace(m.Value))
			}
		case "parameters":
			params, _ := jsontext.SplitValid(bytes.TrimSpace(m.Value))
			for _, p := range memberOf(params, "properties") {
				h.Parameters = append(h.Parameters, p.Key)
			}
		}
	}
	return h
}

// memberOf returns the members of the object under key among ms (valid
// JSON), or nil.
func memberOf(ms []jsontext.Member, key string) []jsontext.Member {
	for _, m := range ms {
		if m.Key == key {
			out, _ := jsontext.SplitValid(bytes.TrimSpace(m.Value))
			return out
		}
	}
	return nil
}

// search scores the documents with BM25 (k1 1.2, b 0.75) and returns the
// best limit, ties by name.
func (idx *searchIndex) search(words []string, limit int) []SearchHit {
	const k1, b = 1.2, 0.75
	scores := make([]float64, len(idx.docs))
	var touched []int
	seen := map[string]bool{}
	n := float64(len(idx.docs))
	for _, w := range words {
		if seen[w] {
			continue
		}
		seen[w] = true
		ps := idx.postings[w]
		if len(ps) == 0 {
			continue
		}
		idf := math.Log(1 + (n-float64(len(ps))+0.5)/(float64(len(ps))+0.5))
		for _, p := range ps {
			if scores[p.doc] == 0 {
				touched = append(touched, p.doc)
			}
			norm := p.tf + k1*(1-b+b*idx.docs[p.doc].length/idx.avg)
			scores[p.doc] += idf * p.tf * (k1 + 1) / norm
		}
	}
	better := func(i, j int) bool {
		if scores[i] != scores[j] {
			return scores[i] > scores[j]
		}
		return idx.docs[i].hit.Name < idx.docs[j].hit.Name
	}
	top := make([]int, 0, limit+1) // the best so far, best first
	for _, d := range touched {
		if len(top) == limit && !better(d, top[limit-1]) {
			continue
		}
		i := sort.Search(len(top), func(k int) bool { return better(d, top[k]) })
		top = append(top, 0)
		copy(top[i+1:], top[i:])
		top[i] = d
		if len(top) > limit {
			top = top[:limit]
		}
	}
	out := make([]SearchHit, len(top))
	for i, d := range top {
		out[i] = idx.docs[d].hit
	}
	return out
}

// searchWords splits text into lower-case words: on every character that
// is not a letter or digit, and between a lower-case letter or digit and an
// upper-case one (getWeather → get, weather; HTTPServer → http, server).
// A word already in lower case is a substring of s (no copy).
func searchWords(s string) []string {
	var out []string
	start := -1 // the current word's first byte, -1 between words
	var prev rune
	for i, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			if start >= 0 {
				out = append(out, strings.ToLower(s[start:i]))
				start = -1
			}
			continue
		}
		if start >= 0 && unicode.IsUpper(r) {
			next, _ := utf8.DecodeRuneInString(s[i+utf8.RuneLen(r):])
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && unicode.IsLower(next)) {
				out = append(out, strings.ToLower(s[start:i]))
				start = -1
			}
		}
		if start < 0 {
			start = i
		}
		prev = r
	}
	if start >= 0 {
		out = append(out, strings.ToLower(s[start:]))
	}
	return out
}
