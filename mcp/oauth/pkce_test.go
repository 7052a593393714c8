package oauth

import (
	"encoding/base64"
	"regexp"
	"testing"
)

// RFC 7636 appendix B: the 32 octets, their verifier, its S256 challenge.
func TestPKCEChallengeRFC7636Vector(t *testing.T) {
	octets := []byte{116, 24, 223, 180, 151, 153, 224, 37, 79, 250, 96, 125, 216, 173, 187, 186,
		22, 212, 37, 77, 105, 214, 191, 240, 91, 88, 5, 88, 83, 132, 141, 121}
	verifier := "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
	if got := base64.RawURLEncoding.EncodeToString(octets); got != verifier {
		t.Fatalf("verifier of the octets = %q, want %q", got, verifier)
	}
	if got, want := s256Challenge(verifier), "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"; got != want {
		t.Fatalf("S256 challenge = %q, want %q", got, want)
	}
}

var unreserved = regexp.MustCompile(`^[A-Za-z0-9._~-]{43,128}$`)

func TestNewPKCEIsFreshAndConsistent(t *testing.T) {
	v1, c1, err := NewPKCE()
	if err != nil {
		t.Fatal(err)
	}
	v2, _, err := NewPKCE()
	if err != nil {
		t.Fatal(err)
	}
	if !unreserved.MatchString(v1) || v1 == v2 {
		t.Fatalf("verifiers %q, %q: want 43-128 unreserved characters, fresh each time", v1, v2)
	}
	if c1 != s256Challenge(v1) || len(c1) != 43 {
		t.Fatalf("challenge %q is not the S256 of its verifier", c1)
	}
}

func TestNewStateIsFresh(t *testing.T) {
	s1, err := NewState()
	if err != nil {
		t.Fatal(err)
	}
	s2, _ := NewState()
	if !unreserved.MatchString(s1) || s1 == s2 {
		t.Fatalf("states %q, %q: want fresh unreserved strings of 43+ characters", s1, s2)
	}
}
