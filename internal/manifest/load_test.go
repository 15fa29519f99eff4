package manifest

import (
	"bytes"
	"errors"
	"testing"
)

func TestLoadStreamErrorsNameDocument(t *testing.T) {
	_, err := LoadStream(bytes.NewReader([]byte("a: 1\n---\nb: [\n")), "x.yaml")
	if err == nil {
		t.Fatal("LoadStream(...): want error")
	}
	if want := "x.yaml:3: document 2:"; !bytes.Contains([]byte(err.Error()), []byte(want)) {
		t.Errorf("LoadStream(...): error %q does not name %q", err, want)
	}
	var ie *InputError
	if !errors.As(err, &ie) {
		t.Errorf("LoadStream(...): want an InputError, got %T", err)
	}
}
