package oauth

import "strings"

// maxChallengeBytes is the longest WWW-Authenticate value ParseChallenge
// reads; a longer one is ignored as malformed.
const maxChallengeBytes = 16 << 10

// ParseChallenge reads the Bearer challenge of WWW-Authenticate header
// values (RFC 7235 §4.1, RFC 6750 §3, RFC 9728 §5.1): auth-params quoted
// (with backslash escapes) or not, several challenges in one value or
// several values, the scheme and the parameter names matched without
// regard to case. The first Bearer challenge wins, else the first DPoP
// challenge (RFC 9449 §7.1), and in it the first of a repeated parameter. A value that does not parse (an unterminated
// quote, a control byte, a parameter without a value, more than 16 KiB)
// is skipped whole, so a missing or malformed header gives the zero
// Challenge.
func ParseChallenge(values []string) Challenge {
	var dpop *rawChallenge
	for _, v := range values {
		chs, ok := parseChallenges(v)
		if !ok {
			continue
		}
		for _, ch := range chs {
			if strings.EqualFold(ch.scheme, "bearer") {
				return challengeOf(ch)
			}
			if dpop == nil && strings.EqualFold(ch.scheme, TokenTypeDPoP) {
				dpop = &ch
			}
		}
	}
	if dpop != nil {
		return challengeOf(*dpop) // a server that takes DPoP-bound tokens only (RFC 9449 §7.1)
	}
	return Challenge{}
}

// challengeOf is the Challenge of a parsed challenge.
func challengeOf(ch rawChallenge) Challenge {
	return Challenge{
		Scheme:           ch.scheme,
		ResourceMetadata: ch.params["resource_metadata"],
		Scope:            ch.params["scope"],
		Error:            ch.params["error"],
		ErrorDescription: ch.params["error_description"],
	}
}

// rawChallenge is one challenge of a header value: its scheme as sent and
// its parameters by lower-case name.
type rawChallenge struct {
	scheme string
	params map[string]string
}

// challengeScanner walks one header value.
type challengeScanner struct {
	s string
	i int
}

// parseChallenges splits one WWW-Authenticate value into its challenges;
// ok is false when the value is malformed.
func parseChallenges(v string) (out []rawChallenge, ok bool) {
	if len(v) > maxChallengeBytes || hasControl(v) {
		return nil, false
	}
	sc := &challengeScanner{s: v}
	for {
		sc.skipListSeparators()
		if sc.done() {
			return out, true
		}
		scheme := sc.token()
		if scheme == "" {
			return nil, false
		}
		ch := rawChallenge{scheme: scheme, params: map[string]string{}}
		if !sc.challengeBody(&ch) {
			return nil, false
		}
		out = append(out, ch)
	}
}

// challengeBody reads what follows a scheme: a token68 or auth-params, up
// to the next challenge's scheme (left unread) or the end.
func (sc *challengeScanner) challengeBody(ch *rawChallenge) bool {
	spaced := sc.skipSpace()
	if sc.done() {
		return true
	}
	if sc.s[sc.i] != ',' {
		if !spaced {
			return false
		}
		if sc.token68() {
			return sc.endOfItem()
		}
	}
	for {
		sc.skipListSeparators()
		if sc.done() {
			return true
		}
		start := sc.i
		name := sc.token()
		if name == "" {
			return false
		}
		sc.skipSpace()
		if !sc.eat('=') {
			sc.i = start // the next challenge's scheme
			return true
		}
		sc.skipSpace()
		val, ok := sc.value()
		if !ok {
			return false
		}
		key := strings.ToLower(name)
		if _, dup := ch.params[key]; !dup {
			ch.params[key] = val
		}
		if !sc.endOfItem() {
			return false
		}
	}
}

// token68 reads a token68 (RFC 7235 §2.1) when one comes next as a whole
// item, and reports whether it did; otherwise nothing is consumed.
func (sc *challengeScanner) token68() bool {
	start := sc.i
	for !sc.done() && isToken68Byte(sc.s[sc.i]) {
		sc.i++
	}
	if sc.i == start {
		return false
	}
	for sc.eat('=') {
	}
	end := sc.i
	sc.skipSpace()
	if sc.done() || sc.s[sc.i] == ',' {
		sc.i = end
		return true
	}
	sc.i = start
	return false
}

// value reads a quoted-string (unescaped) or a bare value up to a space or
// comma; ok is false for an unterminated quote or nothing at all.
func (sc *challengeScanner) value() (string, bool) {
	if !sc.eat('"') {
		start := sc.i
		for !sc.done() && !strings.ContainsRune(" \t,\"", rune(sc.s[sc.i])) {
			sc.i++
		}
		return sc.s[start:sc.i], sc.i > start
	}
	var b strings.Builder
	for !sc.done() {
		c := sc.s[sc.i]
		sc.i++
		switch {
		case c == '"':
			return b.String(), true
		case c == '\\' && !sc.done():
			b.WriteByte(sc.s[sc.i])
			sc.i++
		default:
			b.WriteByte(c)
		}
	}
	return "", false
}

// endOfItem is true at the end or at a comma (consumed), after spaces.
func (sc *challengeScanner) endOfItem() bool {
	sc.skipSpace()
	return sc.done() || sc.eat(',')
}

// token reads an RFC 7230 token (maybe empty).
func (sc *challengeScanner) token() string {
	start := sc.i
	for !sc.done() && isTchar(sc.s[sc.i]) {
		sc.i++
	}
	return sc.s[start:sc.i]
}

// skipSpace skips spaces and tabs, reporting whether there were any.
func (sc *challengeScanner) skipSpace() bool {
	start := sc.i
	for !sc.done() && (sc.s[sc.i] == ' ' || sc.s[sc.i] == '\t') {
		sc.i++
	}
	return sc.i > start
}

// skipListSeparators skips the empty list elements between challenges.
func (sc *challengeScanner) skipListSeparators() {
	for sc.skipSpace() || sc.eat(',') {
	}
}

func (sc *challengeScanner) done() bool { return sc.i >= len(sc.s) }

// eat consumes c when it comes next.
func (sc *challengeScanner) eat(c byte) bool {
	if !sc.done() && sc.s[sc.i] == c {
		sc.i++
		return true
	}
	return false
}

// hasControl reports a control byte other than tab (or DEL) in s.
func hasControl(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 0x20 && c != '\t') || c == 0x7f {
			return true
		}
	}
	return false
}

// isTchar is RFC 7230's tchar.
func isTchar(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

// isToken68Byte is a byte of a token68 before its trailing "=".
func isToken68Byte(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	return strings.IndexByte("-._~+/", c) >= 0
}
