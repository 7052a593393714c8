package redact

import (
	"net/url"
	"regexp"
	"strings"
	"sync"
)

// URL returns raw with its userinfo replaced by Mark, every path segment
// that is a secret (PathSecret: a token carried in the path; names of the
// endpoint are kept) replaced by Mark, and every query and fragment value
// replaced by Mark (names kept; an item without "=" is replaced whole). When raw parses with a host, the userinfo is what
// ends at the authority's last "@"; when it does not parse, or has no host,
// everything from the authority start to the last "@" of the whole text
// counts as userinfo: that also covers an "@" a browser would read
// differently ("https://a\\@b") and "user:pw@host" written without a scheme.
func URL(raw string) string {
	s := raw
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		s = userinfo(s, len(s))
	case u.Host == "":
		// Parsed without a host: an "@" in the query or fragment is not
		// userinfo.
		end := len(s)
		if i := strings.IndexAny(s, "?#"); i >= 0 {
			end = i
		}
		s = userinfo(s, end)
	case u.User != nil:
		s = authorityUserinfo(s)
	}
	i := strings.IndexAny(s, "?#")
	if i < 0 {
		return longSegments(s)
	}
	head, rest := s[:i], s[i:]
	var b strings.Builder
	b.WriteString(longSegments(head))
	if rest[0] == '?' {
		query, fragment, hasFragment := strings.Cut(rest[1:], "#")
		b.WriteByte('?')
		b.WriteString(pairs(query))
		if hasFragment {
			b.WriteByte('#')
			b.WriteString(pairs(fragment))
		}
	} else {
		b.WriteByte('#')
		b.WriteString(pairs(rest[1:]))
	}
	return b.String()
}

// authorityUserinfo replaces the userinfo of a URL that parsed with one:
// from "//" to the last "@" before the authority ends.
func authorityUserinfo(s string) string {
	i := strings.Index(s, "//")
	if i < 0 {
		return userinfo(s, len(s))
	}
	start := i + 2
	end := len(s)
	if j := strings.IndexAny(s[start:], "/?#"); j >= 0 {
		end = start + j
	}
	at := strings.LastIndexByte(s[start:end], '@')
	if at < 0 {
		return userinfo(s, len(s))
	}
	return s[:start] + Mark + s[start+at:]
}

// userinfo replaces everything from the authority start to the last "@"
// before end.
// The authority starts after "//", else after a web scheme's ":"
// ("https:u:pw@host"), else at the beginning: in "user:pw@host" the "user"
// may be the token.
func userinfo(s string, end int) string {
	at := strings.LastIndexByte(s[:end], '@')
	if at < 0 {
		return s
	}
	start := 0
	if i := strings.Index(s, "//"); i >= 0 && i < at && !strings.ContainsAny(s[:i], "?#") {
		start = i + 2
	} else if scheme, _, ok := strings.Cut(s[:at], ":"); ok {
		switch strings.ToLower(scheme) {
		case "http", "https", "ws", "wss":
			start = len(scheme) + 1
		}
	}
	if strings.HasPrefix(s[start:], Mark+"@") {
		return s // redacted already: what follows is host and path
	}
	return s[:start] + Mark + s[at:]
}

// longSegments replaces each path segment of head (a URL without query and
// fragment, its userinfo already replaced) that is a secret (PathSecret) by
// Mark. The path starts at the first "/" or backslash after
// the authority ("//"), or after the start when there is no "//".
func longSegments(head string) string {
	start := 0
	if i := strings.Index(head, "//"); i >= 0 {
		start = i + 2
	}
	j := strings.IndexAny(head[start:], "/\\")
	if j < 0 {
		return head
	}
	path := head[start+j:]
	var b strings.Builder
	b.WriteString(head[:start+j])
	for path != "" {
		b.WriteByte(path[0]) // a separator
		path = path[1:]
		seg := path
		if k := strings.IndexAny(path, "/\\"); k >= 0 {
			seg = path[:k]
		}
		path = path[len(seg):]
		if PathSecret(seg) {
			seg = Mark
		}
		b.WriteString(seg)
	}
	return b.String()
}

// pairs keeps the names of name=value pairs and replaces every value (an
// item without "=" is replaced whole).
func pairs(q string) string {
	if q == "" {
		return q
	}
	parts := strings.Split(q, "&")
	for i, p := range parts {
		if p == "" {
			continue
		}
		if j := strings.IndexByte(p, '='); j >= 0 {
			parts[i] = p[:j+1] + Mark
		} else {
			parts[i] = Mark
		}
	}
	return strings.Join(parts, "&")
}

// schemePrefix matches a URL scheme and "://" (compiled on first use).
var schemePrefix = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.\-]*://`) })

// looksLikeURL reports whether s (trimmed) starts with scheme://: the
// strings of a config that URL redacts.
func looksLikeURL(s string) bool {
	return schemePrefix().MatchString(strings.TrimSpace(s))
}
