package mcp

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"time"
	"weak"

	"github.com/toolgate/toolgate/core"
)

// List changes (docs/security.md, "Notifications"): a registration into a
// branch (RegisterServer, LoadMcpConfig; not with ToolNames, not
// LoadMcpTools) is followed. When its server declared
// capabilities.tools.listChanged and sends notifications/tools/list_changed
// on any stream of the connection, the branch's tools of that server are
// refreshed: tools/list again through prepareServer (the path registration
// takes, so names, request options, result mode and security are the
// registration's), then swapped in one step (core.Manager.ReplaceOwned). The
// branch is held weakly: a branch nobody holds stops being followed.
//
// What a server can make us do is budgeted per registration: a burst of
// notifications within listChangedDebounce makes one refresh, a notification
// during a refresh (or while the next one waits) makes one more after it,
// one registration never refreshes twice at once, two refreshes start at
// least listChangedMinInterval apart, and after a refresh that took d the
// next waits listChangedLoad·d more (at most listChangedMaxWait), so
// refreshing holds a registration's share of the time under
// 1/(1+listChangedLoad). A descriptor the server sends again byte for byte
// is not checked, compiled or built again (reuse.go), and the work of the
// others goes through pace points (pace.go).

// listChangedDebounce is how long a refresh waits after the first
// notification of a burst.
var listChangedDebounce = 100 * time.Millisecond

// listChangedMinInterval is the least time between the starts of two
// refreshes of one registration.
var listChangedMinInterval = 2 * time.Second

// listChangedLoad is how many times a refresh's own duration the next one
// waits after it ended.
const listChangedLoad = 4

// listChangedMaxWait bounds the wait listChangedLoad makes.
const listChangedMaxWait = 60 * time.Second

// ToolsChangedEvent reports one refresh of a registration's tools: the
// registered names added, removed and changed (description, schemas or
// annotations), each in the server's order; or, when the refresh failed
// and the old tools stay, Error.
type ToolsChangedEvent struct {
	// Server is the server's name.
	Server string
	// Added, Removed and Changed are registered names (never nil on success).
	Added, Removed, Changed []string
	// Error is why the refresh registered nothing (nil on success): the
	// errors of RegisterServer, duplicate-tool for a name a local tool or
	// another server's tool holds.
	Error *core.Error
}

// MarshalJSON is the event as JS receives it: {server, added, removed,
// changed} or {server, error}.
func (e ToolsChangedEvent) MarshalJSON() ([]byte, error) {
	if e.Error != nil {
		return json.Marshal(struct {
			Server string      `json:"server"`
			Error  *core.Error `json:"error"`
		}{e.Server, e.Error})
	}
	return json.Marshal(struct {
		Server  string   `json:"server"`
		Added   []string `json:"added"`
		Removed []string `json:"removed"`
		Changed []string `json:"changed"`
	}{e.Server, orEmpty(e.Added), orEmpty(e.Removed), orEmpty(e.Changed)})
}

// orEmpty is s, or an empty list for nil.
func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// ToolsChangedFunc receives the refreshes of a registration's tools. It
// must not block for long: the next refresh of the registration waits.
type ToolsChangedFunc func(ToolsChangedEvent)

// followKey names one followed registration: a branch and a server.
type followKey struct {
	m      weak.Pointer[core.Manager]
	server string
}

// followers are a pool's followed registrations.
type followers struct {
	mu    sync.Mutex
	byKey map[followKey]*follower
}

// follower is one followed registration and the state of its refreshes.
type follower struct {
	p        *Pool
	m        weak.Pointer[core.Manager]
	cfg      *ServerConfig
	opts     RegisterOptions
	entryKey string // the pool entry whose connections it listens to

	mu      sync.Mutex
	timer   *time.Timer
	running bool
	again   bool               // a notification came during the refresh
	cancel  context.CancelFunc // of the refresh running
	stopped bool
	next    time.Time // the earliest start of the next refresh (the budget)
}

// follow starts following the registration of cfg's tools into m under o
// (replacing the registration of the same server into m followed before);
// with OnToolsChanged it also asks for the standalone GET stream.
func (p *Pool) follow(m *core.Manager, cfg *ServerConfig, o *RegisterOptions) {
	if len(o.ToolNames) > 0 {
		return
	}
	f := &follower{p: p, m: weak.Make(m), cfg: cfg, opts: *o, entryKey: entryKeyOf(cfg, o.Security.withDefaults())}
	fs := &p.followed
	fs.mu.Lock()
	if fs.byKey == nil {
		fs.byKey = map[followKey]*follower{}
	}
	for k, old := range fs.byKey {
		if k.m.Value() == nil { // the branch is gone
			old.stop()
			delete(fs.byKey, k)
		}
	}
	key := followKey{m: f.m, server: cfg.Name}
	if old := fs.byKey[key]; old != nil {
		old.stop()
	}
	fs.byKey[key] = f
	fs.mu.Unlock()
	if o.OnToolsChanged != nil {
		p.openStreams(f.entryKey)
	}
}

// listChanged schedules a refresh of every registration followed on the
// entry entryKey; it counts the notification as ignored when there is none.
func (p *Pool) listChanged(entryKey string) {
	fs := &p.followed
	fs.mu.Lock()
	var hit []*follower
	for _, f := range fs.byKey {
		if f.entryKey == entryKey {
			hit = append(hit, f)
		}
	}
	fs.mu.Unlock()
	if len(hit) == 0 {
		p.stats.notificationsIgnored.Add(1)
	}
	for _, f := range hit {
		f.poke()
	}
}

// wantsStream reports whether a registration followed on entryKey has an
// OnToolsChanged hook (and so wants the standalone GET stream).
func (p *Pool) wantsStream(entryKey string) bool {
	fs := &p.followed
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for _, f := range fs.byKey {
		if f.entryKey == entryKey && f.opts.OnToolsChanged != nil {
			return true
		}
	}
	return false
}

// pause stops every scheduled refresh and cancels those running (Cleanup):
// registrations stay followed on the next connections.
func (fs *followers) pause() {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for _, f := range fs.byKey {
		f.mu.Lock()
		if f.timer != nil {
			f.timer.Stop()
			f.timer = nil
		}
		f.again = false
		if f.cancel != nil {
			f.cancel()
		}
		f.mu.Unlock()
	}
}

// poke schedules a refresh: listChangedDebounce from now, or when the
// budget allows one (whichever is later), unless one is scheduled already;
// or after the one running. A notification that finds a refresh scheduled
// or running is coalesced into it (counted).
func (f *follower) poke() {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case f.stopped:
	case f.running:
		f.again = true
		f.p.stats.refreshesCoalesced.Add(1)
	case f.timer == nil:
		f.schedule(time.Now())
	default:
		f.p.stats.refreshesCoalesced.Add(1)
	}
}

// schedule arms the next refresh (f.mu held): listChangedDebounce after
// now, or at f.next when the budget asks for more (counted as delayed).
func (f *follower) schedule(now time.Time) {
	wait := listChangedDebounce
	if budget := f.next.Sub(now); budget > wait {
		wait = budget
		f.p.stats.refreshesDelayed.Add(1)
	}
	f.timer = time.AfterFunc(wait, f.refresh)
}

// stop ends the following: no refresh starts any more.
func (f *follower) stop() {
	f.mu.Lock()
	f.stopped = true
	if f.timer != nil {
		f.timer.Stop()
		f.timer = nil
	}
	if f.cancel != nil {
		f.cancel()
	}
	f.mu.Unlock()
}

// refresh runs one refresh and reports it, then the next one a
// notification asked for meanwhile.
func (f *follower) refresh() {
	f.mu.Lock()
	f.timer = nil
	if f.stopped || f.running {
		f.mu.Unlock()
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	f.running, f.cancel = true, cancel
	f.mu.Unlock()

	start := time.Now()
	ev := f.apply(ctx)
	if ev != nil && ctx.Err() == nil {
		f.p.stats.toolRefreshes.Add(1)
		if f.opts.OnToolsChanged != nil {
			f.opts.OnToolsChanged(*ev)
		}
	}
	cancel()
	end := time.Now()

	f.mu.Lock()
	f.running, f.cancel = false, nil
	f.next = refreshBudget(start, end)
	if f.again && !f.stopped {
		f.again = false
		f.schedule(end)
	}
	f.mu.Unlock()
}

// refreshBudget is the earliest start of the refresh after one that ran
// from start to end: listChangedMinInterval after its start, and
// listChangedLoad times its duration (at most listChangedMaxWait) after
// its end.
func refreshBudget(start, end time.Time) time.Time {
	next := start.Add(listChangedMinInterval)
	if after := end.Add(min(listChangedLoad*end.Sub(start), listChangedMaxWait)); after.After(next) {
		next = after
	}
	return next
}

// apply lists the server's tools again and swaps them into the branch; nil
// when the branch is gone.
func (f *follower) apply(ctx context.Context) *ToolsChangedEvent {
	m := f.m.Value()
	if m == nil {
		f.stop()
		return nil
	}
	o := f.opts
	o.refresh = true // requestOptions of a tool the server dropped wait for its return
	o.reuse = reusableOf(m, f.cfg.Name)
	b, err := prepareServer(ctx, f.p, f.cfg, &o)
	if err != nil {
		return &ToolsChangedEvent{Server: f.cfg.Name, Error: core.AsError(err)}
	}
	ev, err := b.replace(m)
	if err != nil {
		return &ToolsChangedEvent{Server: f.cfg.Name, Error: core.AsError(err)}
	}
	return ev
}

// replace swaps the batch in for the server's discovered tools in m, in
// one step, keeping each tool whose descriptor and schema did not change
// (the same *core.Tool), and reports what changed. A name a tool of
// anyone else holds refuses the whole swap with duplicate-tool.
func (b *batch) replace(m *core.Manager) (*ToolsChangedEvent, error) {
	owned := func(t *core.Tool) bool {
		px, ok := t.Callable.(*proxy)
		return ok && px.cfg.Name == b.cfg.Name && px.raw != nil
	}
	tools := slices.Clone(b.tools)
	for i, t := range tools {
		if old, ok := m.Get(b.names[i]); ok && owned(old) && sameTool(old, t) {
			tools[i] = old
		}
	}
	out, err := m.ReplaceOwned(owned, tools)
	if err != nil {
		name := core.AsError(err).Tool
		return nil, serverError(core.CodeDuplicateTool, b.cfg.Name, b.cfg,
			"the refreshed tool list registers '%s', which a local tool or another server's tool holds; the old tools stay", name)
	}
	ev := &ToolsChangedEvent{Server: b.cfg.Name, Added: []string{}, Removed: []string{}, Changed: []string{}}
	old := make(map[string]*core.Tool, len(out))
	for _, t := range out {
		old[t.Function()] = t
	}
	for i, name := range b.names {
		switch prev, ok := old[name]; {
		case !ok:
			ev.Added = append(ev.Added, name)
		case prev != tools[i]:
			ev.Changed = append(ev.Changed, name)
		}
	}
	for _, t := range out {
		if !slices.Contains(b.names, t.Function()) {
			ev.Removed = append(ev.Removed, t.Function())
		}
	}
	return ev, nil
}

// sameTool reports whether two proxy tools of one server were built from
// the same descriptor into the same schema.
func sameTool(old, t *core.Tool) bool {
	a, _ := old.Callable.(*proxy)
	b, _ := t.Callable.(*proxy)
	return a != nil && b != nil && a.wire == b.wire && string(a.raw) == string(b.raw) &&
		string(old.Schema) == string(t.Schema) && string(old.RequestOptions) == string(t.RequestOptions)
}
