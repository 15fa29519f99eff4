//go:build ignore

// Runs internal/kubetest's etcd and kube-apiserver until SIGINT or SIGTERM,
// for trying xpmigrate against a local API server by hand
// (hack/kube-apiserver.sh start|stop). Prints the kubeconfigs of the admin
// and the read-only reader.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/xpmigrate/xpmigrate/internal/kubetest"
)

func main() {
	ctx := context.Background()
	s, err := kubetest.Start(ctx, kubetest.Options{KeepDir: true})
	if err != nil {
		fmt.Fprintln(os.Stderr, "kube-apiserver-serve:", err)
		os.Exit(1)
	}
	code := 0
	if err := s.InstallCrossplaneCRDs(ctx); err != nil {
		fmt.Fprintln(os.Stderr, "kube-apiserver-serve:", err)
		code = 1
	} else {
		fmt.Printf("API server %s (state in %s)\nadmin:  %s\nreader: %s\naudit log: %s\n",
			s.URL, s.Dir, s.Kubeconfig(kubetest.Admin), s.Kubeconfig(kubetest.Reader), s.AuditLogPath())
		sig := make(chan os.Signal, 1)
		signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
		<-sig
	}
	if err := s.Stop(); err != nil {
		fmt.Fprintln(os.Stderr, "kube-apiserver-serve:", err)
		code = 1
	}
	os.Exit(code)
}
