package cluster

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/pkg/errors"
	"k8s.io/client-go/rest"
)

// fakeAPIServer serves discovery for Compositions, and answers their list
// with list.
func fakeAPIServer(t *testing.T, list http.HandlerFunc) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	js := func(body string) http.HandlerFunc {
		return func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = fmt.Fprint(w, body)
		}
	}
	mux.HandleFunc("/api", js(`{"kind":"APIVersions","versions":["v1"]}`))
	mux.HandleFunc("/api/v1", js(`{"kind":"APIResourceList","groupVersion":"v1","resources":[]}`))
	mux.HandleFunc("/apis", js(`{"kind":"APIGroupList","apiVersion":"v1","groups":[{"name":"apiextensions.crossplane.io","versions":[{"groupVersion":"apiextensions.crossplane.io/v1","version":"v1"}],"preferredVersion":{"groupVersion":"apiextensions.crossplane.io/v1","version":"v1"}}]}`))
	mux.HandleFunc("/apis/apiextensions.crossplane.io/v1", js(`{"kind":"APIResourceList","apiVersion":"v1","groupVersion":"apiextensions.crossplane.io/v1","resources":[{"name":"compositions","singularName":"composition","namespaced":false,"kind":"Composition","verbs":["get","list"]}]}`))
	mux.HandleFunc("/apis/apiextensions.crossplane.io/v1/compositions", list)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// compositions lists the Compositions of the server at url with a bearer
// token, failing the test instead of hanging.
func compositions(t *testing.T, url string, o Options, timeout time.Duration) error {
	t.Helper()
	_, err := compositionsWithin(t, url, o, timeout)
	return err
}

// compositionsWithin is compositions that also says whether the timeout
// had passed when the list returned.
func compositionsWithin(t *testing.T, url string, o Options, timeout time.Duration) (bool, error) {
	t.Helper()
	r, err := NewReader(&rest.Config{Host: url, BearerToken: "s3cr3t"}, o)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	done := make(chan error, 1)
	go func() { _, err := r.Compositions(ctx); done <- err }()
	select {
	case err := <-done:
		return ctx.Err() != nil, err
	case <-time.After(timeout + 30*time.Second):
		t.Fatal("Compositions: still running 30s after its timeout")
	}
	return false, nil
}

func TestNoRedirectToAnotherHost(t *testing.T) {
	var mu sync.Mutex
	var leaked []string
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		leaked = append(leaked, r.Header.Get("Authorization"))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = fmt.Fprint(w, `{"kind":"APIVersions","versions":["v1"]}`)
	}))
	defer other.Close()
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+r.URL.Path, http.StatusFound)
	}))
	defer api.Close()

	err := compositions(t, api.URL, Options{}, 10*time.Second)
	var re *RedirectError
	if !errors.As(err, &re) {
		t.Errorf("Compositions from a server that redirects to another host: got %v, want a *RedirectError", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(leaked) > 0 {
		t.Errorf("the other host got %d requests (Authorization %q): want none", len(leaked), leaked)
	}
}

func TestResponseSizeBound(t *testing.T) {
	item := `{"apiVersion":"apiextensions.crossplane.io/v1","kind":"Composition","metadata":{"name":"c%d","annotations":{"pad":"` + strings.Repeat("x", 1000) + `"}}}`
	page := func(n int) string {
		items := make([]string, n)
		for i := range items {
			items[i] = fmt.Sprintf(item, i)
		}
		return `{"apiVersion":"apiextensions.crossplane.io/v1","kind":"CompositionList","metadata":{},"items":[` + strings.Join(items, ",") + `]}`
	}
	cases := map[string]struct {
		reason   string
		items    int
		chunked  bool
		tooLarge bool
	}{
		"WithinTheBound": {reason: "A list within the bound is read.", items: 3},
		"OverTheBound":   {reason: "A list response over the bound is refused.", items: 100, tooLarge: true},
		"OverTheBoundChunked": {
			reason: "A response without a Content-Length is cut off once it crosses the bound.",
			items:  100, chunked: true, tooLarge: true,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			srv := fakeAPIServer(t, func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				body := page(tc.items)
				if !tc.chunked {
					w.Header().Set("Content-Length", fmt.Sprint(len(body)))
				}
				_, _ = fmt.Fprint(w, body)
				if f, ok := w.(http.Flusher); ok && tc.chunked {
					f.Flush()
				}
			})
			err := compositions(t, srv.URL, Options{MaxResponseSize: 32 << 10}, 10*time.Second)
			var tl *ResponseTooLargeError
			if got := errors.As(err, &tl); got != tc.tooLarge || (err != nil) != tc.tooLarge {
				t.Errorf("%s\nCompositions: got %v, want too large %t", tc.reason, err, tc.tooLarge)
			}
		})
	}
}

func TestListEnds(t *testing.T) {
	cases := map[string]struct {
		reason  string
		list    http.HandlerFunc
		timeout time.Duration
		// deadline says the list ends at the timeout.
		deadline bool
	}{
		"StuckContinueToken": {
			reason:  "A continue token that never advances is refused at once instead of paging until the timeout.",
			timeout: time.Minute,
			list: func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				_, _ = fmt.Fprint(w, `{"apiVersion":"apiextensions.crossplane.io/v1","kind":"CompositionList","metadata":{"continue":"same"},"items":[]}`)
			},
		},
		"SlowDrip": {
			reason:   "A response that drips a byte at a time ends at the timeout.",
			timeout:  2 * time.Second,
			deadline: true,
			list: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				for {
					if _, err := fmt.Fprint(w, " "); err != nil {
						return
					}
					w.(http.Flusher).Flush()
					select {
					case <-r.Context().Done():
						return
					case <-time.After(100 * time.Millisecond):
					}
				}
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			srv := fakeAPIServer(t, tc.list)
			expired, err := compositionsWithin(t, srv.URL, Options{}, tc.timeout)
			if err == nil || expired != tc.deadline {
				t.Errorf("%s\nCompositions: got error %v, want one (the deadline's: %t)", tc.reason, err, tc.deadline)
			}
		})
	}
}
