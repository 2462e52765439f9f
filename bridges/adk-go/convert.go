package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"iter"
	"time"

	"google.golang.org/genai"

	"google.golang.org/adk/v2/memory"
	"google.golang.org/adk/v2/model"
	"google.golang.org/adk/v2/session"
)

// The kit's JSON model (docs/bridge-protocol.md, "The data model on the wire") to ADK Go's types
// and back, faithfully: timestamps in as time.Time to the nanosecond, parts as genai.Part,
// entries out with the package's fields (its time.Time formatted as the contract's RFC 3339 in
// UTC with milliseconds, sub-millisecond time cut, as the kit's typed adapters do).

type kitSession struct {
	ID      string         `json:"id"`
	AppName string         `json:"app_name"`
	UserID  string         `json:"user_id"`
	State   map[string]any `json:"state"`
	Events  []kitEvent     `json:"events"`
}

type kitEvent struct {
	ID        string      `json:"id"`
	Author    string      `json:"author"`
	Content   *kitContent `json:"content"`
	Timestamp string      `json:"timestamp"`
}

type kitContent struct {
	Role  *string   `json:"role"`
	Parts []kitPart `json:"parts"`
}

type kitPart struct {
	Text             *string      `json:"text,omitempty"`
	FunctionCall     *kitFunction `json:"function_call,omitempty"`
	FunctionResponse *kitFunction `json:"function_response,omitempty"`
	InlineData       *kitBlob     `json:"inline_data,omitempty"`
}

type kitFunction struct {
	Name     string         `json:"name"`
	Args     map[string]any `json:"args,omitempty"`
	Response map[string]any `json:"response,omitempty"`
}

type kitBlob struct {
	MIMEType string `json:"mime_type"`
	Data     string `json:"data"`
}

type kitEntry struct {
	ID        string      `json:"id"`
	Content   *kitContent `json:"content"`
	Author    string      `json:"author"`
	Timestamp string      `json:"timestamp"`
}

// memSession is a session.Session over the kit's session, for AddSessionToMemory.
type memSession struct {
	id, appName, userID string
	state               memState
	events              memEvents
}

func (s *memSession) ID() string                { return s.id }
func (s *memSession) AppName() string           { return s.appName }
func (s *memSession) UserID() string            { return s.userID }
func (s *memSession) State() session.State      { return s.state }
func (s *memSession) Events() session.Events    { return s.events }
func (s *memSession) LastUpdateTime() time.Time { return time.Time{} }

type memState map[string]any

func (m memState) Get(key string) (any, error) {
	value, ok := m[key]
	if !ok {
		return nil, session.ErrStateKeyNotExist
	}
	return value, nil
}

func (m memState) Set(key string, value any) error {
	m[key] = value
	return nil
}

func (m memState) All() iter.Seq2[string, any] {
	return func(yield func(string, any) bool) {
		for k, v := range m {
			if !yield(k, v) {
				return
			}
		}
	}
}

type memEvents []*session.Event

func (e memEvents) All() iter.Seq[*session.Event] {
	return func(yield func(*session.Event) bool) {
		for _, event := range e {
			if !yield(event) {
				return
			}
		}
	}
}

func (e memEvents) Len() int                { return len(e) }
func (e memEvents) At(i int) *session.Event { return e[i] }

// sessionFromKit is the kit's session JSON as an ADK Go session. Numbers in tool data are kept
// as json.Number, written back as they came: encoding/json's default, float64, would round an
// integer beyond 2^53, a change the bridge would make and ADK Go's memory service does not.
func sessionFromKit(raw json.RawMessage) (session.Session, error) {
	var kit kitSession
	decoder := json.NewDecoder(bytes.NewReader(raw))
	decoder.UseNumber()
	if err := decoder.Decode(&kit); err != nil {
		return nil, fmt.Errorf("the session is not the kit's session JSON: %w", err)
	}
	events := make(memEvents, 0, len(kit.Events))
	for i, e := range kit.Events {
		timestamp, err := time.Parse(time.RFC3339Nano, e.Timestamp)
		if err != nil {
			return nil, fmt.Errorf("event %d: timestamp %q is not RFC 3339: %w", i, e.Timestamp, err)
		}
		content, err := contentFromKit(e.Content)
		if err != nil {
			return nil, fmt.Errorf("event %d: %w", i, err)
		}
		events = append(events, &session.Event{
			LLMResponse: model.LLMResponse{Content: content},
			ID:          e.ID,
			Timestamp:   timestamp,
			Author:      e.Author,
		})
	}
	state := memState(kit.State)
	if state == nil {
		state = memState{}
	}
	return &memSession{id: kit.ID, appName: kit.AppName, userID: kit.UserID, state: state, events: events}, nil
}

func contentFromKit(kit *kitContent) (*genai.Content, error) {
	if kit == nil {
		return nil, nil
	}
	content := &genai.Content{}
	if kit.Role != nil {
		content.Role = *kit.Role
	}
	for i, p := range kit.Parts {
		switch {
		case p.Text != nil:
			content.Parts = append(content.Parts, &genai.Part{Text: *p.Text})
		case p.FunctionCall != nil:
			content.Parts = append(content.Parts, &genai.Part{FunctionCall: &genai.FunctionCall{Name: p.FunctionCall.Name, Args: p.FunctionCall.Args}})
		case p.FunctionResponse != nil:
			content.Parts = append(content.Parts, &genai.Part{FunctionResponse: &genai.FunctionResponse{Name: p.FunctionResponse.Name, Response: p.FunctionResponse.Response}})
		case p.InlineData != nil:
			data, err := base64.StdEncoding.DecodeString(p.InlineData.Data)
			if err != nil {
				return nil, fmt.Errorf("part %d: inline data is not standard base64: %w", i, err)
			}
			content.Parts = append(content.Parts, &genai.Part{InlineData: &genai.Blob{MIMEType: p.InlineData.MIMEType, Data: data}})
		default:
			return nil, fmt.Errorf("part %d is of no kind the kit's model has", i)
		}
	}
	return content, nil
}

func contentToKit(content *genai.Content) (*kitContent, error) {
	if content == nil {
		return &kitContent{Parts: []kitPart{}}, nil
	}
	kit := &kitContent{Parts: []kitPart{}}
	if content.Role != "" {
		role := content.Role
		kit.Role = &role
	}
	for i, p := range content.Parts {
		switch {
		case p.FunctionCall != nil:
			kit.Parts = append(kit.Parts, kitPart{FunctionCall: &kitFunction{Name: p.FunctionCall.Name, Args: p.FunctionCall.Args}})
		case p.FunctionResponse != nil:
			kit.Parts = append(kit.Parts, kitPart{FunctionResponse: &kitFunction{Name: p.FunctionResponse.Name, Response: p.FunctionResponse.Response}})
		case p.InlineData != nil:
			kit.Parts = append(kit.Parts, kitPart{InlineData: &kitBlob{MIMEType: p.InlineData.MIMEType, Data: base64.StdEncoding.EncodeToString(p.InlineData.Data)}})
		default:
			text := p.Text
			kit.Parts = append(kit.Parts, kitPart{Text: &text})
			if p.Text == "" && (p.FileData != nil || p.ExecutableCode != nil || p.CodeExecutionResult != nil) {
				return nil, fmt.Errorf("part %d: the service returned a part the kit's model has no kind for", i)
			}
		}
	}
	return kit, nil
}

// entriesToKit is a search's entries as the kit's entry JSON, in the package's order.
func entriesToKit(entries []memory.Entry) ([]kitEntry, error) {
	out := make([]kitEntry, 0, len(entries))
	for i, entry := range entries {
		content, err := contentToKit(entry.Content)
		if err != nil {
			return nil, fmt.Errorf("entry %d: %w", i, err)
		}
		out = append(out, kitEntry{
			ID:        entry.ID,
			Content:   content,
			Author:    entry.Author,
			Timestamp: entry.Timestamp.UTC().Format("2006-01-02T15:04:05.000Z"),
		})
	}
	return out, nil
}
