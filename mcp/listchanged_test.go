package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/core"
)

// changeLog collects ToolsChangedEvents.
type changeLog struct {
	mu  sync.Mutex
	got []ToolsChangedEvent
}

func (l *changeLog) add(ev ToolsChangedEvent) {
	l.mu.Lock()
	l.got = append(l.got, ev)
	l.mu.Unlock()
}

func (l *changeLog) events() []ToolsChangedEvent {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]ToolsChangedEvent(nil), l.got...)
}

// waitEvents waits until l holds n events.
func (l *changeLog) wait(t *testing.T, n int) []ToolsChangedEvent {
	t.Helper()
	waitUntil(t, "the refresh is reported", func() bool { return len(l.events()) >= n })
	return l.events()
}

// followed registers n's tools into a manager holding a local tool
// "local", following list changes with log.
func followed(t *testing.T, p *Pool, n *notifier, log *changeLog, qualify bool) *core.Manager {
	t.Helper()
	m := core.NewManager(nil)
	c, err := core.Func("local", func() int { return 1 })
	require.NoError(t, err)
	local, err := core.NewTool(c, nil)
	require.NoError(t, err)
	require.NoError(t, m.Register(local, false))
	o := &RegisterOptions{Security: loopback(), Qualify: &qualify}
	if log != nil {
		o.OnToolsChanged = log.add
	}
	_, err = RegisterServer(context.Background(), p, m, &ServerConfig{Name: "nf", URL: n.url}, o)
	require.NoError(t, err)
	// The pool follows a branch weakly (a branch nobody holds is never
	// refreshed): keep this one alive until the test ends, even where the
	// test no longer uses it after the change it waits for.
	t.Cleanup(func() { runtime.KeepAlive(m) })
	return m
}

func TestListChangedRefreshesAddRemoveChange(t *testing.T) {
	n := newNotifier(t, toolJSON("a"), toolJSON("b"), toolJSON("odd.name"))
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	var log changeLog
	m := followed(t, p, n, &log, true)
	before := m.Names()
	require.Equal(t, []string{"local", "mcp__nf__a", "mcp__nf__b", before[3]}, before)
	oddName := before[3]
	waitUntil(t, "the standalone stream opens", func() bool { return n.getOpen.Load() == 1 })
	unchanged, _ := m.Get(oddName)

	n.setTools(toolDesc("b", "b, changed"), toolJSON("odd.name"), toolJSON("c"))
	n.push <- event(methodToolsListChanged, nil)
	ev := log.wait(t, 1)[0]
	require.Nil(t, ev.Error)
	assert.Equal(t, ToolsChangedEvent{Server: "nf", Added: []string{"mcp__nf__c"}, Removed: []string{"mcp__nf__a"}, Changed: []string{"mcp__nf__b"}}, ev)
	assert.Equal(t, []string{"local", "mcp__nf__b", oddName, "mcp__nf__c"}, m.Names(), "names derived as at registration")
	same, _ := m.Get(oddName)
	assert.Same(t, unchanged, same, "an unchanged tool stays the same tool")
	schema, _ := m.Get("mcp__nf__b")
	assert.Contains(t, string(schema.Schema), "b, changed")

	_, err := m.Invoke(context.Background(), &core.Request{Function: "mcp__nf__a", Arguments: core.NewArguments()})
	assert.True(t, errors.Is(err, core.ErrToolNotFound), "a removed tool is not found: %v", err)
	assert.Equal(t, core.StatusCompleted, invoke(t, m, "mcp__nf__c", map[string]any{"q": "x"}).Status)
}

func TestListChangedRefreshIsAtomicOnACollision(t *testing.T) {
	n := newNotifier(t, toolJSON("a"))
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	var log changeLog
	m := followed(t, p, n, &log, false)
	waitUntil(t, "the standalone stream opens", func() bool { return n.getOpen.Load() == 1 })
	v := m.Version()
	n.setTools(toolJSON("b"), toolJSON("local"))
	n.push <- event(methodToolsListChanged, nil)
	ev := log.wait(t, 1)[0]
	require.NotNil(t, ev.Error)
	assert.Equal(t, core.CodeDuplicateTool, ev.Error.Code)
	assert.Contains(t, ev.Error.Message, "'local'")
	assert.Equal(t, []string{"local", "a"}, m.Names(), "the old set stays")
	assert.Equal(t, v, m.Version())
}

func TestListChangedBurstIsOneRefresh(t *testing.T) {
	n := newNotifier(t, toolJSON("a"))
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	var log changeLog
	m := followed(t, p, n, &log, true)
	waitUntil(t, "the standalone stream opens", func() bool { return n.getOpen.Load() == 1 })
	lists := n.lists.Load()
	n.setTools(toolJSON("a"), toolJSON("b"))
	for i := 0; i < 5; i++ {
		n.push <- event(methodToolsListChanged, nil)
	}
	log.wait(t, 1)
	time.Sleep(3 * listChangedDebounce) // a second refresh would have started by now
	assert.Len(t, log.events(), 1)
	assert.Equal(t, lists+1, n.lists.Load(), "one tools/list for the burst")
	assert.EqualValues(t, 5, p.Stats().ListChanged)
	assert.Equal(t, []string{"local", "mcp__nf__a", "mcp__nf__b"}, m.Names())
}

func TestListChangedOnACallStreamRefreshesWithoutTheGetStream(t *testing.T) {
	n := newNotifier(t, toolJSON("touch"))
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	m := followed(t, p, n, nil, true)
	n.setTools(toolJSON("touch"), toolJSON("new"))
	require.Equal(t, core.StatusCompleted, invoke(t, m, "mcp__nf__touch", nil).Status)
	waitUntil(t, "the refresh", func() bool { return m.Has("mcp__nf__new") })
	assert.EqualValues(t, 0, n.gets.Load(), "no standalone stream without onToolsChanged")
	assert.EqualValues(t, 1, p.Stats().ToolRefreshes)
}

func TestListChangedIgnoredWithoutTheCapability(t *testing.T) {
	n := newNotifier(t, toolJSON("touch"))
	n.quiet = true
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	var log changeLog
	m := followed(t, p, n, &log, true)
	n.setTools(toolJSON("touch"), toolJSON("new"))
	require.Equal(t, core.StatusCompleted, invoke(t, m, "mcp__nf__touch", nil).Status)
	time.Sleep(3 * listChangedDebounce)
	assert.False(t, m.Has("mcp__nf__new"))
	assert.Empty(t, log.events())
	assert.EqualValues(t, 1, p.Stats().NotificationsIgnored)
	assert.EqualValues(t, 0, n.gets.Load(), "no standalone stream for a server that declared no listChanged")
}

func TestStandaloneStreamClosesOnCleanupAndReconnects(t *testing.T) {
	n := newNotifier(t, toolJSON("a"))
	p := NewPool(nil)
	var log changeLog
	followed(t, p, n, &log, true)
	waitUntil(t, "the standalone stream opens", func() bool { return n.getOpen.Load() == 1 })
	defer func(d time.Duration) { resumeBackoff = d }(resumeBackoff)
	n.push <- "id: 7\nretry: 10\n\n"
	n.push <- closeStream
	waitUntil(t, "the stream is opened again", func() bool { return n.gets.Load() == 2 && n.getOpen.Load() == 1 })
	n.mu.Lock()
	ids := append([]string(nil), n.eventID...)
	n.mu.Unlock()
	assert.Equal(t, []string{"", "7"}, ids, "resumed with Last-Event-ID")
	require.NoError(t, p.Cleanup(context.Background()))
	waitUntil(t, "the stream closes", func() bool { return n.getOpen.Load() == 0 })
	assert.EqualValues(t, 2, p.Stats().StandaloneStreams)
}

func TestStandaloneStream405IsNoStream(t *testing.T) {
	n := newNotifier(t, toolJSON("a"), toolJSON("touch"))
	n.noGet = true
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	var log changeLog
	m := followed(t, p, n, &log, true)
	waitUntil(t, "the GET was tried", func() bool { return n.requests() > 0 })
	n.setTools(toolJSON("touch"))
	require.Equal(t, core.StatusCompleted, invoke(t, m, "mcp__nf__touch", nil).Status)
	ev := log.wait(t, 1)[0]
	assert.Equal(t, []string{"mcp__nf__a"}, ev.Removed, "list changes on call streams still refresh")
	assert.EqualValues(t, 0, p.Stats().StandaloneStreams)
}

func TestListChangedKeepsRequestOptionsOfADroppedTool(t *testing.T) {
	n := newNotifier(t, toolJSON("a"), toolJSON("touch"))
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	var log changeLog
	m := core.NewManager(nil)
	schema := json.RawMessage(`{"type":"object","properties":{"q":{"type":"string","maxLength":3}}}`)
	_, err := RegisterServer(context.Background(), p, m, &ServerConfig{Name: "nf", URL: n.url},
		&RegisterOptions{Security: loopback(), RequestOptions: map[string]json.RawMessage{"a": schema}, OnToolsChanged: log.add})
	require.NoError(t, err)
	n.setTools(toolJSON("touch"))
	require.Equal(t, core.StatusCompleted, invoke(t, m, "mcp__nf__touch", nil).Status)
	ev := log.wait(t, 1)[0]
	require.Nil(t, ev.Error, "a tool named in requestOptions may go away")
	assert.Equal(t, []string{"mcp__nf__a"}, ev.Removed)
	n.setTools(toolJSON("touch"), toolJSON("a"))
	require.Equal(t, core.StatusCompleted, invoke(t, m, "mcp__nf__touch", nil).Status)
	log.wait(t, 2)
	_, err = m.Match(&core.Request{Function: "mcp__nf__a", Arguments: argsOf(map[string]any{"q": "toolong"})})
	assert.True(t, errors.Is(err, core.ErrInvalidArguments), "its requestOptions apply again when it returns: %v", err)
}

func TestAFollowedBranchIsHeldWeakly(t *testing.T) {
	n := newNotifier(t, toolJSON("a"))
	p := NewPool(nil)
	defer p.Cleanup(context.Background())
	func() {
		m := core.NewManager(nil)
		_, err := RegisterServer(context.Background(), p, m, &ServerConfig{Name: "nf", URL: n.url}, &RegisterOptions{Security: loopback()})
		require.NoError(t, err)
	}()
	lists := n.lists.Load()
	waitUntil(t, "the branch is collected", func() bool {
		runtime.GC()
		p.followed.mu.Lock()
		defer p.followed.mu.Unlock()
		for k := range p.followed.byKey {
			return k.m.Value() == nil
		}
		return true
	})
	c := connOf(t, p, n.url)
	c.guard.notification(&jsonrpcMessage{Method: methodToolsListChanged})
	time.Sleep(3 * listChangedDebounce)
	assert.Equal(t, lists, n.lists.Load(), "nobody holds the branch: no refresh")
}

// argsOf builds core.Arguments from a map.
func argsOf(m map[string]any) *core.Arguments {
	a := core.NewArguments()
	for k, v := range m {
		a.Set(k, v)
	}
	return a
}
