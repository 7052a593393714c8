package core

import (
	"bytes"
	"math"
	"sort"
	"strings"
	"unicode"

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
// when the registry or its deferrals changed since the last one.
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
	version := m.version
	m.mu.RUnlock()
	idx := buildSearchIndex(tools)
	m.mu.Lock()
	idx.version, idx.gen = version, d.gen
	d.index = idx
	m.mu.Unlock()
	return idx
}

// searchDoc is one indexed tool.
type searchDoc struct {
	hit    SearchHit
	length float64
}

type posting struct {
	doc int
	tf  float64
}

// searchIndex is BM25's inverted index over the deferred tools.
type searchIndex struct {
	docs     []searchDoc
	postings map[string][]posting
	avg      float64
	version  uint64
	gen      uint64
}

func buildSearchIndex(tools []*Tool) *searchIndex {
	idx := &searchIndex{postings: map[string][]posting{}}
	total := 0.0
	for _, t := range tools {
		hit := hitOf(t)
		counts := map[string]float64{}
		var order []string
		add := func(words []string, weight float64) {
			for _, w := range words {
				if _, ok := counts[w]; !ok {
					order = append(order, w)
				}
				counts[w] += weight
			}
		}
		add(searchWords(hit.Name), 2)
		add(searchWords(hit.Description), 1)
		for _, p := range hit.Parameters {
			add(searchWords(p), 1)
		}
		n := len(idx.docs)
		length := 0.0
		for _, w := range order {
			idx.postings[w] = append(idx.postings[w], posting{doc: n, tf: counts[w]})
			length += counts[w]
		}
		idx.docs = append(idx.docs, searchDoc{hit: hit, length: length})
		total += length
	}
	if len(idx.docs) > 0 {
		idx.avg = total / float64(len(idx.docs))
	}
	return idx
}

// hitOf reads a tool's name, description and parameter names.
func hitOf(t *Tool) SearchHit {
	h := SearchHit{Name: t.Function(), Parameters: []string{}}
	fn, _ := jsontext.Lookup(bytes.TrimSpace(t.Schema), "function")
	if ms, ok := jsontext.Members(fn); ok {
		h.Description = jsontext.StringMember(ms, "description")
		if params, ok := ms["parameters"]; ok {
			if props, ok := jsontext.Lookup(bytes.TrimSpace(params), "properties"); ok {
				if members, ok := jsontext.Split(bytes.TrimSpace(props)); ok {
					for _, p := range members {
						h.Parameters = append(h.Parameters, p.Key)
					}
				}
			}
		}
	}
	return h
}

// search scores the documents with BM25 (k1 1.2, b 0.75) and returns the
// best limit, ties by name.
func (idx *searchIndex) search(words []string, limit int) []SearchHit {
	const k1, b = 1.2, 0.75
	scores := map[int]float64{}
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
			norm := p.tf + k1*(1-b+b*idx.docs[p.doc].length/idx.avg)
			scores[p.doc] += idf * p.tf * (k1 + 1) / norm
		}
	}
	ranked := make([]int, 0, len(scores))
	for d := range scores {
		ranked = append(ranked, d)
	}
	sort.Slice(ranked, func(i, j int) bool {
		si, sj := scores[ranked[i]], scores[ranked[j]]
		if si != sj {
			return si > sj
		}
		return idx.docs[ranked[i]].hit.Name < idx.docs[ranked[j]].hit.Name
	})
	if len(ranked) > limit {
		ranked = ranked[:limit]
	}
	out := make([]SearchHit, len(ranked))
	for i, d := range ranked {
		out[i] = idx.docs[d].hit
	}
	return out
}

// searchWords splits text into lower-case words: on every character that
// is not a letter or digit, and between a lower-case letter or digit and an
// upper-case one (getWeather → get, weather; HTTPServer → http, server).
func searchWords(s string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(s)
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush()
			continue
		}
		if unicode.IsUpper(r) && len(cur) > 0 {
			prev := cur[len(cur)-1]
			nextLower := i+1 < len(rs) && unicode.IsLower(rs[i+1])
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || (unicode.IsUpper(prev) && nextLower) {
				flush()
			}
		}
		cur = append(cur, r)
	}
	flush()
	return out
}
