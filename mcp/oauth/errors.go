package oauth

import (
	"fmt"
	"sync"

	"github.com/toolgate/toolgate/internal/redact"
)

// Step names the part of the flow an error comes from.
type Step string

// The steps of the flow, as errors name them (JS: error.authStep).
const (
	StepDiscovery     Step = "discovery"
	StepRegistration  Step = "registration"
	StepAuthorization Step = "authorization"
	StepToken         Step = "token"
	StepRefresh       Step = "refresh"
	StepStepUp        Step = "step-up"
)

// Error is a failure of the flow: the step, the OAuth error and
// error_description when the server sent them (redacted, cut to 300
// bytes), the rule of a refusal the flow decides itself (the Rule*
// constants: the authorization response's, redirect.go, and a
// pre-registered client's issuer, flow_binding.go; "" otherwise), and a
// message that quotes no secret. The
// mcp package turns it into a core.Error of code auth-failed naming the
// server and the step.
type Error struct {
	Step             Step
	OAuthError       string
	ErrorDescription string
	Rule             string
	Message          string
}

// Error returns the message.
func (e *Error) Error() string { return string(e.Step) + ": " + e.Message }

// Secrets are the values a flow must never quote; safe for concurrent use.
// A nil *Secrets redacts only what internal/redact finds on its own (URL
// credentials and query values).
type Secrets struct {
	mu   sync.Mutex
	vals []string
}

// Add records values never to quote (empty ones are ignored).
func (s *Secrets) Add(vals ...string) {
	if s == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, v := range vals {
		if v != "" {
			s.vals = append(s.vals, v)
		}
	}
}

// Scrub returns msg with every recorded secret (and URL secrets) removed.
func (s *Secrets) Scrub(msg string) string {
	var list redact.Secrets
	if s != nil {
		s.mu.Lock()
		list.Headers = append(list.Headers, s.vals...)
		s.mu.Unlock()
	}
	return redact.Text(msg, list)
}

// errorf is an *Error of step with the server's OAuth error fields, its
// message formatted and scrubbed.
func (s *Secrets) errorf(step Step, oauthErr, desc, format string, args ...any) *Error {
	return &Error{
		Step:             step,
		OAuthError:       s.Scrub(cut(oauthErr, 100)),
		ErrorDescription: s.Scrub(cut(desc, 300)),
		Message:          s.Scrub(fmt.Sprintf(format, args...)),
	}
}

// cut is s cut to at most n bytes.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

// redactURL is rawURL as an error may show it.
func redactURL(rawURL string) string { return redact.URL(rawURL) }
