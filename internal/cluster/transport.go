package cluster

import (
	"fmt"
	"io"
	"net/http"

	"github.com/pkg/errors"
	"k8s.io/client-go/rest"
)

// A RedirectError is a redirect of the API server to another host (or
// scheme), refused: client-go adds the credentials (a bearer token, a
// client certificate) to every request it sends, so following it would
// hand them to that host.
type RedirectError struct {
	From, To string
}

func (e *RedirectError) Error() string {
	return fmt.Sprintf("the API server at %s redirected to %s, another host: refused (the credentials are only sent to the API server)", e.From, e.To)
}

// A ResponseTooLargeError is a response body larger than
// Options.MaxResponseSize.
type ResponseTooLargeError struct {
	URL   string
	Limit int64
}

func (e *ResponseTooLargeError) Error() string {
	return fmt.Sprintf("the response to GET %s is larger than %d bytes (--max-response-size): read no further", e.URL, e.Limit)
}

// httpClient returns the HTTP client of cfg (client-go's transport, its
// authentication included) that refuses redirects to another host or
// scheme and stops reading a response body after limit bytes.
func httpClient(cfg *rest.Config, limit int64) (*http.Client, error) {
	cfg = rest.CopyConfig(cfg)
	cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper { return &limitedTransport{next: rt, limit: limit} })
	hc, err := rest.HTTPClientFor(cfg)
	if err != nil {
		return nil, errors.Wrap(err, "cannot create an HTTP client")
	}
	hc.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		first := via[0].URL
		if req.URL.Host != first.Host || req.URL.Scheme != first.Scheme {
			return &RedirectError{From: first.Scheme + "://" + first.Host, To: req.URL.Scheme + "://" + req.URL.Host}
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
	return hc, nil
}

// limitedTransport bounds the body of every response.
type limitedTransport struct {
	next  http.RoundTripper
	limit int64
}

func (t *limitedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	if err != nil || resp.Body == nil {
		return resp, err
	}
	if resp.ContentLength > t.limit {
		_ = resp.Body.Close()
		return nil, &ResponseTooLargeError{URL: req.URL.Redacted(), Limit: t.limit}
	}
	resp.Body = &limitedBody{ReadCloser: resp.Body, left: t.limit, err: &ResponseTooLargeError{URL: req.URL.Redacted(), Limit: t.limit}}
	return resp, nil
}

// limitedBody fails a read once more than its limit has come.
type limitedBody struct {
	io.ReadCloser
	left int64
	err  error
}

func (b *limitedBody) Read(p []byte) (int, error) {
	if b.left < 0 {
		return 0, b.err
	}
	// Read one byte more than is left, to tell a body of exactly the
	// limit from a longer one.
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.ReadCloser.Read(p)
	b.left -= int64(n)
	if b.left < 0 {
		return 0, b.err
	}
	return n, err
}
