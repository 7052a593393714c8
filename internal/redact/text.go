package redact

import (
	"slices"
	"strconv"
	"strings"
)

// minSecretLen is the shortest value Text treats as a secret: shorter ones
// would shred ordinary words of a message and guard nothing.
const minSecretLen = 4

// minTokenLen is the shortest whitespace-separated part of a header value
// ("Bearer abc…" → "abc…") that Text also removes on its own.
const minTokenLen = 8

// A path segment of a URL is a secret (PathSecret) when it is at least
// MinPathSecretLen bytes long, unless it is shorter than LongPathSecretLen
// and reads as a name: only lower-case letters, "-", "_" and ".". URL
// replaces such a segment with Mark, and Text removes it from messages.
// Shorter segments name an endpoint ("mcp", "sse", "v1"); so do longer
// names ("github-enterprise"), which a server's name often repeats; a token
// carried in a path ("https://h/mcp/<token>/sse") is long and has digits or
// capitals.
const (
	MinPathSecretLen  = 16
	LongPathSecretLen = 32
)

// PathSecret reports whether the path segment seg (raw, as in the URL) is a
// secret.
func PathSecret(seg string) bool {
	if len(seg) < MinPathSecretLen {
		return false
	}
	if len(seg) >= LongPathSecretLen {
		return true
	}
	for i := 0; i < len(seg); i++ {
		if c := seg[i]; (c < 'a' || c > 'z') && c != '-' && c != '_' && c != '.' {
			return true
		}
	}
	return false
}

// Secrets are the configured values a message must not show.
type Secrets struct {
	// Headers are header values: each is removed whole, and each of its
	// whitespace-separated parts of at least 8 bytes on its own (so a bearer
	// token echoed without "Bearer " goes too).
	Headers []string
	// Values are removed whole (env values).
	Values []string
	// URL is a configured URL: its userinfo (whole, user and password), its
	// query and fragment (whole and each value) and each path segment that
	// is a secret (PathSecret) are removed, each raw and percent-decoded.
	// The URL is split by hand, so one that does not parse loses them too.
	URL string
}

// Text returns msg with every secret replaced by Mark, longest first so a
// secret containing another is replaced whole. A secret is also found in
// the spellings JSON and Go quoting give it (a `"` written `\"`, a control
// character or non-ASCII letter escaped), so a message that quotes what a
// server echoed loses it too. Values shorter than 4 bytes are left alone.
func Text(msg string, s Secrets) string {
	if msg == "" {
		return msg
	}
	secrets := s.list()
	if len(secrets) == 0 {
		return msg
	}
	pairs := make([]string, 0, 2*len(secrets))
	for _, v := range secrets {
		pairs = append(pairs, v, Mark)
	}
	return strings.NewReplacer(pairs...).Replace(msg)
}

// Cut returns msg with every secret of s removed (Text), then cut to at
// most n bytes, "..." marking the cut. Redaction runs on the whole text
// first, so a cut never leaves the first part of a secret behind.
func Cut(msg string, n int, s Secrets) string {
	msg = Text(msg, s)
	if len(msg) <= n {
		return msg
	}
	return msg[:n] + "..."
}

// Quote is Cut, then quoted by strconv.QuoteToASCII: how a message shows
// text a server chose (an error message, a name, a header).
func Quote(msg string, n int, s Secrets) string {
	return strconv.QuoteToASCII(Cut(msg, n, s))
}

// list returns every secret of s in every spelling, longest first, without
// repeats.
func (s Secrets) list() []string {
	var secrets []string
	add := func(v string, min int) {
		if len(v) >= min {
			secrets = append(secrets, spellings(v)...)
		}
	}
	for _, v := range s.Headers {
		add(v, minSecretLen)
		for _, f := range strings.Fields(v) {
			add(f, minTokenLen)
		}
	}
	for _, v := range s.Values {
		add(v, minSecretLen)
	}
	for _, v := range urlSecrets(s.URL) {
		add(v, minSecretLen)
	}
	slices.SortFunc(secrets, func(a, b string) int {
		if len(a) != len(b) {
			return len(b) - len(a)
		}
		return strings.Compare(a, b)
	})
	return slices.Compact(secrets)
}

// spellings returns v as it is and as it appears inside a JSON string
// (with and without HTML escaping, and all-ASCII), inside a Go string
// literal (strconv.Quote and QuoteToASCII), and inside a Go literal of a
// JSON spelling (a JSON body quoted by a Go message).
func spellings(v string) []string {
	json := []string{jsonString(v, false, false), jsonString(v, true, false), jsonString(v, false, true)}
	out := append([]string{v}, json...)
	for _, s := range append([]string{v}, json...) {
		out = append(out, unquoted(strconv.Quote(s)), unquoted(strconv.QuoteToASCII(s)))
	}
	return out
}

// unquoted drops the quotes around a quoted literal.
func unquoted(q string) string {
	return q[1 : len(q)-1]
}
