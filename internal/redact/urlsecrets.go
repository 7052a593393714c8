package redact

import (
	"net/url"
	"strings"
)

// urlSecrets lists the secret-bearing parts of a configured URL, each raw
// and percent-decoded: its userinfo (whole, the user and the password), its
// query and fragment (whole and each value), and each path segment that is
// a secret (PathSecret). The URL is split by hand, not by
// url.Parse, so a URL that does not parse gives up the same parts.
func urlSecrets(raw string) []string {
	if raw == "" {
		return nil
	}
	var out []string
	add := func(v string) {
		out = append(out, v)
		if d := unescape(v); d != v {
			out = append(out, d)
		}
	}
	rest := raw
	if i := strings.IndexByte(rest, '#'); i >= 0 {
		add(rest[i+1:])
		for _, v := range pairValues(rest[i+1:]) {
			add(v)
		}
		rest = rest[:i]
	}
	if i := strings.IndexByte(rest, '?'); i >= 0 {
		add(rest[i+1:])
		for _, v := range pairValues(rest[i+1:]) {
			add(v)
		}
		rest = rest[:i]
	}
	if info, ok := rawUserinfo(raw); ok {
		add(info)
		user, password, _ := strings.Cut(info, ":")
		add(user)
		add(password)
	}
	for _, seg := range strings.FieldsFunc(pathOf(rest), func(r rune) bool { return r == '/' || r == '\\' }) {
		if PathSecret(seg) {
			add(seg)
		}
	}
	return out
}

// rawUserinfo is everything from the authority's start ("//", else the
// beginning) to the last "@" of raw: more than a parser would call
// userinfo when an "@" comes later, never less.
func rawUserinfo(raw string) (string, bool) {
	at := strings.LastIndexByte(raw, '@')
	if at < 0 {
		return "", false
	}
	start := 0
	if i := strings.Index(raw, "//"); i >= 0 && i < at {
		start = i + 2
	}
	return raw[start:at], true
}

// pathOf returns the path of a URL without query and fragment: what follows
// the authority (after "//" and any userinfo, up to the first "/" or
// backslash), or, without "//", what follows the scheme's ":".
func pathOf(s string) string {
	start := 0
	if i := strings.Index(s, "//"); i >= 0 {
		start = i + 2
		if at := strings.LastIndexByte(s, '@'); at >= start {
			start = at + 1
		}
		j := strings.IndexAny(s[start:], "/\\")
		if j < 0 {
			return ""
		}
		return s[start+j:]
	}
	if i := strings.IndexByte(s, ':'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// pairValues returns the value of each name=value item of a query or
// fragment, and each item without "=" whole.
func pairValues(q string) []string {
	var out []string
	for _, p := range strings.Split(q, "&") {
		if _, v, ok := strings.Cut(p, "="); ok {
			out = append(out, v)
		} else {
			out = append(out, p)
		}
	}
	return out
}

// unescape decodes percent-escapes (and "+" as a space, as a query would)
// leniently: a "%" that starts no valid escape is kept.
func unescape(s string) string {
	if !strings.ContainsAny(s, "%+") {
		return s
	}
	if d, err := url.QueryUnescape(s); err == nil {
		return d
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' && i+2 < len(s) && ishex(s[i+1]) && ishex(s[i+2]) {
			b.WriteByte(unhex(s[i+1])<<4 | unhex(s[i+2]))
			i += 2
			continue
		}
		if c == '+' {
			c = ' '
		}
		b.WriteByte(c)
	}
	return b.String()
}

func ishex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}
