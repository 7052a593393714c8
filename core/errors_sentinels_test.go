package core

import (
	"errors"
	"testing"
)

// TestThereIsOneSentinelPerCode holds the sentinels to Codes: a code added
// without its sentinel (or a sentinel of no code) fails here.
func TestThereIsOneSentinelPerCode(t *testing.T) {
	sentinels := []*Error{
		ErrInvalidTool, ErrUnsupportedType, ErrDuplicateTool, ErrToolNotFound, ErrInvalidRequest,
		ErrInvalidArguments, ErrInvalidSchema, ErrNotRestorable, ErrPolicyDenied, ErrUnsupported,
		ErrTransport, ErrTimeout, ErrInternal, ErrToolError, ErrInvalidResult, ErrAuthFailed,
	}
	byCode := map[Code]*Error{}
	for _, s := range sentinels {
		if byCode[s.Code] != nil {
			t.Errorf("two sentinels of %s", s.Code)
		}
		byCode[s.Code] = s
	}
	for _, c := range Codes {
		s := byCode[c]
		if s == nil {
			t.Errorf("no sentinel for code %s", c)
			continue
		}
		if !errors.Is(Errorf(c, "t", "m"), s) {
			t.Errorf("errors.Is(an error of %s, its sentinel) is false", c)
		}
		delete(byCode, c)
	}
	for c := range byCode {
		t.Errorf("a sentinel of %s, which Codes does not list", c)
	}
}
