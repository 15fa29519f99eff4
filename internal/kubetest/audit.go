package kubetest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/pkg/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// An AuditEvent is the part of an audit.k8s.io/v1 Event the harness reads.
type AuditEvent struct {
	Stage      string `json:"stage"`
	RequestURI string `json:"requestURI"`
	Verb       string `json:"verb"`
	User       struct {
		Username string   `json:"username"`
		Groups   []string `json:"groups"`
	} `json:"user"`
	ObjectRef *struct {
		Resource    string `json:"resource"`
		Namespace   string `json:"namespace"`
		Name        string `json:"name"`
		APIGroup    string `json:"apiGroup"`
		Subresource string `json:"subresource"`
	} `json:"objectRef"`
	ResponseStatus *struct {
		Code int `json:"code"`
	} `json:"responseStatus"`
}

// String names the request: user, verb, resource and URI, and the response
// code.
func (e AuditEvent) String() string {
	code := 0
	if e.ResponseStatus != nil {
		code = e.ResponseStatus.Code
	}
	return fmt.Sprintf("%s %s %s (%d)", e.User.Username, e.Verb, e.RequestURI, code)
}

// ReadVerbs are the verbs a read-only client may send: no watch, no write.
var ReadVerbs = map[string]bool{"get": true, "list": true}

// AuditEvents returns every completed request the API server has logged so
// far. It first sends a marker request and waits until the log holds it, so
// every request that completed before the call is included.
func (s *Server) AuditEvents(ctx context.Context) ([]AuditEvent, error) {
	s.mu.Lock()
	s.syncs++
	marker := fmt.Sprintf("xpmigrate-kubetest-audit-sync-%d", s.syncs)
	s.mu.Unlock()
	dyn, _, err := s.adminClient()
	if err != nil {
		return nil, err
	}
	// A get of a namespace that does not exist: a 404 the log records.
	_, _ = dyn.Resource(schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}).Get(ctx, marker, metav1.GetOptions{})
	var events []AuditEvent
	err = waitFor(ctx, func() (bool, error) {
		events, err = readAuditLog(s.AuditLogPath())
		if err != nil {
			return false, err
		}
		for _, e := range events {
			if strings.Contains(e.RequestURI, marker) {
				return true, nil
			}
		}
		return false, nil
	})
	return events, errors.Wrap(err, "cannot sync with the audit log")
}

func readAuditLog(path string) ([]AuditEvent, error) {
	data, err := os.ReadFile(path) //nolint:gosec,forbidigo // The test server's own audit log, which the harness wrote.
	if err != nil {
		return nil, errors.Wrapf(err, "cannot read the audit log %q", path)
	}
	var out []AuditEvent
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var e AuditEvent
		if err := json.Unmarshal(line, &e); err != nil {
			// The last line may be half written while the server runs.
			continue
		}
		if e.Stage != "ResponseComplete" && e.Stage != "Panic" {
			continue
		}
		out = append(out, e)
	}
	return out, errors.Wrap(sc.Err(), "cannot scan the audit log")
}

// ReadOnlyViolations returns the requests of user whose verb is not in
// ReadVerbs (a create, update, patch, delete or watch, answered or not),
// sorted by their description.
func ReadOnlyViolations(events []AuditEvent, user string) []string {
	var out []string
	for _, e := range events {
		if e.User.Username == user && !ReadVerbs[e.Verb] {
			out = append(out, e.String())
		}
	}
	sort.Strings(out)
	return out
}

// Requests returns how many requests of user the events hold per verb.
func Requests(events []AuditEvent, user string) map[string]int {
	out := map[string]int{}
	for _, e := range events {
		if e.User.Username == user {
			out[e.Verb]++
		}
	}
	return out
}
