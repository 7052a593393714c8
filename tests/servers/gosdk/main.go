// Command gosdk serves the shared tool set of the protocol-era tests
// (tests/fixtures/mcp-eras/tools.json, built by ./toolset) on a stateless
// server of the official Go SDK, for the Node tests
// (tests/node/gosdk-server.mjs). Stateless, the SDK serves 2026-07-28 per
// request (server/discover, input_required rounds, subscriptions/listen)
// and a 2025 client statelessly.
//
//	gosdk -spec tests/fixtures/mcp-eras/tools.json
//
// It listens on 127.0.0.1 on a port the kernel picks and prints one line on
// stdout, "listening http://127.0.0.1:PORT/mcp"; then one line per HTTP
// request on stderr ("POST server/discover", "POST tools/call", "GET",
// and "closed POST subscriptions/listen" when a held stream ends). When
// stdin closes it shuts down gracefully: it exits once every request has
// ended, so a stream a client left open keeps it running.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"strings"

	gosdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgate/toolgate/tests/servers/gosdk/toolset"
)

func main() {
	specPath := flag.String("spec", "", "the tool set fixture, tests/fixtures/mcp-eras/tools.json")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("gosdk: ")
	if *specPath == "" {
		log.Fatal("-spec is required")
	}
	sp, err := toolset.LoadSpec(*specPath)
	if err != nil {
		log.Fatal(err)
	}
	s := toolset.NewServer(sp, nil)
	h := gosdk.NewStreamableHTTPHandler(func(*http.Request) *gosdk.Server { return s }, &gosdk.StreamableHTTPOptions{Stateless: true})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	srv := &http.Server{Handler: logRequests(h)}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	fmt.Printf("listening http://%s/mcp\n", ln.Addr())

	_, _ = io.Copy(io.Discard, os.Stdin)
	if err := srv.Shutdown(context.Background()); err != nil {
		log.Fatal(err)
	}
	if err := <-served; err != http.ErrServerClosed {
		log.Fatal(err)
	}
}

// logRequests writes one line per request to stderr before next serves it,
// and one more when a GET or subscriptions/listen request ends.
func logRequests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		line := r.Method
		if r.Method == http.MethodPost {
			body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
			r.Body = io.NopCloser(bytes.NewReader(body))
			line += " " + rpcMethods(body)
		}
		fmt.Fprintln(os.Stderr, line)
		if r.Method == http.MethodGet || strings.Contains(line, "subscriptions/listen") {
			defer fmt.Fprintln(os.Stderr, "closed", line)
		}
		next.ServeHTTP(w, r)
	})
}

// rpcMethods names the JSON-RPC messages of a POST body: their methods,
// "response" for an answer to a server request, "?" for what is not one.
func rpcMethods(body []byte) string {
	var msgs []struct {
		Method string `json:"method"`
	}
	if !bytes.HasPrefix(bytes.TrimSpace(body), []byte("[")) {
		body = append(append([]byte("["), body...), ']')
	}
	if json.Unmarshal(body, &msgs) != nil {
		return "?"
	}
	names := make([]string, len(msgs))
	for i, m := range msgs {
		names[i] = m.Method
		if m.Method == "" {
			names[i] = "response"
		}
	}
	return strings.Join(names, ",")
}
