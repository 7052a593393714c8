package mcp

import (
	"context"
	"fmt"
	"time"

	"github.com/toolgate/toolgate/core"
)

// Before protocol 2026-07-28 a server may end the SSE stream of an answer
// before the answer, and the session resumes it with a GET carrying
// Last-Event-ID, waiting as long as the server's retry field asks (1 s
// without one), for as long as the request lasts. The guard bounds that
// (docs/security.md, "Answers, server requests and resumed streams"): the
// n-th resume of one request's stream waits resumeBackoff·2^(n-1) more,
// at most maxResumeBackoff, and after maxStreamResumes resumes the request
// fails.
var (
	maxStreamResumes = 5
	resumeBackoff    = 100 * time.Millisecond
	maxResumeBackoff = 2 * time.Second
)

// resumeLimits are the package's resume bounds as a guard keeps them.
type resumeLimits struct {
	max       int
	wait, cap time.Duration
}

// defaultResumeLimits returns maxStreamResumes, resumeBackoff and
// maxResumeBackoff.
func defaultResumeLimits() resumeLimits {
	return resumeLimits{max: maxStreamResumes, wait: resumeBackoff, cap: maxResumeBackoff}
}

// delay is how long the n-th resume (from 1) waits: wait·2^(n-1), at most
// cap.
func (r resumeLimits) delay(n int) time.Duration {
	d := r.wait
	for i := 1; i < n && d < r.cap; i++ {
		d *= 2
	}
	return min(d, r.cap)
}

// beforeResume is called for a GET that resumes the stream of the request
// whose exchange is x (nil: no request of ours): it waits the backoff and
// returns nil, or returns the transport error that refuses the resume, or
// ctx's error when ctx ends while it waits.
func (g *guard) beforeResume(ctx context.Context, x *exchange) error {
	if x == nil {
		g.stats.streamResumesRefused.Add(1)
		return g.wrap(core.CodeTransport, "the server asked to resume an SSE stream of no request; refused")
	}
	n := int(x.resumes.Add(1))
	if n > g.resume.max {
		g.stats.streamResumesRefused.Add(1)
		return g.wrap(core.CodeTransport, fmt.Sprintf(
			"the server ended the SSE stream of its answer %d times without answering; not resuming it again", n-1))
	}
	g.stats.streamResumes.Add(1)
	t := time.NewTimer(g.resume.delay(n))
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
