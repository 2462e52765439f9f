// Command adk-go-bridge serves ADK Go's in-memory memory service (memory.InMemoryService of
// google.golang.org/adk/v2) behind the memory-conformance bridge protocol (version 2, and 1 for a
// kit that speaks only that; see docs/bridge-protocol.md).
//
// One JSON request per line on stdin, one answer per line on stdout; everything else goes to
// stderr. Each `open` makes a new service (an in-memory service has no storage, so every
// instance starts empty); `reset` makes a fresh store with one instance. ADK Go's
// memory.Service has only the two calls, so `add_events`, `add_memory`, `delete` and a
// `search` with a `limit` are answered `"unsupported": true`. A failing request is answered
// `ok: false`; a line that is not a request ends the bridge with exit code 2.
//
// Built by bridges/install.sh into bridges/adk-go/target/adk-go-bridge.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sort"

	"google.golang.org/adk/v2/memory"
)

// protocolVersion is the newest protocol version this bridge speaks.
const protocolVersion = 2

// adkModule is the module whose memory service the bridge serves; its version, from the build
// information, is what `hello` reports.
const adkModule = "google.golang.org/adk/v2"

// unsupported is a call the service does not have: answered with `unsupported: true`.
type unsupported struct{ reason string }

func (u unsupported) Error() string { return u.reason }

func unsupportedf(format string, args ...any) error {
	return unsupported{fmt.Sprintf(format, args...)}
}

// store holds a store's open instances by number.
type store struct {
	instances map[int]memory.Service
	opened    int
}

type bridge struct {
	factory func() memory.Service
	backend string
	version string
	stores  map[string]*store
}

type request struct {
	ID       *json.Number    `json:"id"`
	Op       string          `json:"op"`
	Protocol *int            `json:"protocol"`
	Store    string          `json:"store"`
	Instance *int            `json:"instance"`
	Session  json.RawMessage `json:"session"`
	AppName  string          `json:"app_name"`
	UserID   string          `json:"user_id"`
	Query    string          `json:"query"`
	Limit    *int            `json:"limit"`
}

func main() {
	b := &bridge{
		factory: memory.InMemoryService,
		backend: "adk-go",
		version: adkModule + " " + adkVersion(),
		stores:  map[string]*store{},
	}
	os.Exit(b.serve(os.Stdin, os.Stdout))
}

// adkVersion is the version of the ADK Go module this binary was built with.
func adkVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == adkModule {
				return dep.Version
			}
		}
	}
	return "(unknown)"
}

// serve answers requests until stdin ends (exit code 0) or a line is not a request (2).
func (b *bridge) serve(in io.Reader, out io.Writer) int {
	lines := bufio.NewReader(in)
	writer := bufio.NewWriter(out)
	for {
		line, err := lines.ReadBytes('\n')
		if len(line) == 0 && err != nil {
			if err != io.EOF {
				fmt.Fprintf(os.Stderr, "%s bridge: reading stdin: %v\n", b.backend, err)
				return 1
			}
			return 0
		}
		var req request
		if jerr := json.Unmarshal(line, &req); jerr != nil || req.ID == nil {
			reason := "no numeric id"
			if jerr != nil {
				reason = jerr.Error()
			}
			fmt.Fprintf(os.Stderr, "%s bridge: not a protocol request (%s): %q\n", b.backend, reason, line)
			return 2
		}
		answer := map[string]any{"id": req.ID}
		fields, herr := b.handle(&req)
		switch {
		case herr == nil:
			answer["ok"] = true
			for k, v := range fields {
				answer[k] = v
			}
		case errors.As(herr, new(unsupported)):
			answer["ok"] = false
			answer["unsupported"] = true
			answer["error"] = herr.Error()
		default:
			fmt.Fprintf(os.Stderr, "%s bridge: request %s (%s): %v\n", b.backend, req.ID, req.Op, herr)
			answer["ok"] = false
			answer["error"] = herr.Error()
		}
		encoded, merr := json.Marshal(answer)
		if merr != nil {
			encoded, _ = json.Marshal(map[string]any{"id": req.ID, "ok": false, "error": "the answer cannot be encoded: " + merr.Error()})
		}
		writer.Write(encoded)
		writer.WriteByte('\n')
		if ferr := writer.Flush(); ferr != nil {
			fmt.Fprintf(os.Stderr, "%s bridge: writing stdout: %v\n", b.backend, ferr)
			return 1
		}
		if err != nil {
			return 0
		}
	}
}

func (b *bridge) handle(req *request) (map[string]any, error) {
	switch req.Op {
	case "hello":
		// A kit that speaks only version 1 is answered in version 1, which it accepts.
		version := 1
		if req.Protocol != nil {
			version = min(*req.Protocol, protocolVersion)
		}
		return map[string]any{"protocol": version, "backend": b.backend, "version": b.version}, nil
	case "reset":
		delete(b.stores, req.Store)
		b.open(b.create(req.Store))
		return nil, nil
	case "open":
		s, ok := b.stores[req.Store]
		if !ok {
			s = b.create(req.Store)
		}
		return map[string]any{"instance": b.open(s)}, nil
	case "close":
		if s, ok := b.stores[req.Store]; ok && req.Instance != nil {
			delete(s.instances, *req.Instance)
		}
		return nil, nil
	case "drop":
		delete(b.stores, req.Store)
		return nil, nil
	}
	service, err := b.service(req.Store, req.Instance)
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	switch req.Op {
	case "add":
		s, err := sessionFromKit(req.Session)
		if err != nil {
			return nil, err
		}
		return nil, service.AddSessionToMemory(ctx, s)
	case "search":
		if req.Limit != nil {
			return nil, unsupportedf("memory.SearchRequest has no limit")
		}
		found, err := service.SearchMemory(ctx, &memory.SearchRequest{AppName: req.AppName, UserID: req.UserID, Query: req.Query})
		if err != nil {
			return nil, err
		}
		memories, err := entriesToKit(found.Memories)
		if err != nil {
			return nil, err
		}
		return map[string]any{"memories": memories}, nil
	case "add_events", "add_memory", "delete":
		return nil, unsupportedf("memory.Service (%s) has no %s", b.version, req.Op)
	}
	return nil, unsupportedf("unknown op %q", req.Op)
}

func (b *bridge) create(name string) *store {
	s := &store{instances: map[int]memory.Service{}}
	b.stores[name] = s
	return s
}

func (b *bridge) open(s *store) int {
	s.opened++
	s.instances[s.opened] = b.factory()
	return s.opened
}

func (b *bridge) service(name string, instance *int) (memory.Service, error) {
	s, ok := b.stores[name]
	if !ok {
		return nil, fmt.Errorf("no store %q: open (or reset) it first", name)
	}
	var number int
	if instance != nil {
		number = *instance
	} else {
		// Version 1 requests name no instance: the store's first open one.
		numbers := make([]int, 0, len(s.instances))
		for n := range s.instances {
			numbers = append(numbers, n)
		}
		sort.Ints(numbers)
		if len(numbers) > 0 {
			number = numbers[0]
		}
	}
	service, ok := s.instances[number]
	if !ok {
		return nil, fmt.Errorf("store %q has no open instance %d: open it first", name, number)
	}
	return service, nil
}
