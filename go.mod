module github.com/optjudge/optjudge

go 1.26.0

require (
	github.com/fsnotify/fsnotify v1.10.1
	github.com/google/go-cmdtest v0.4.0
	golang.org/x/sys v0.50.0
	gopkg.in/yaml.v3 v3.0.1
)

require (
	github.com/google/go-cmp v0.3.1 // indirect
	github.com/google/renameio v0.1.0 // indirect
)
