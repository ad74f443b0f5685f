# The two commands: `make demo` and `make test`. Everything they need is
# installed by scripts/dynamodb-local.sh (DynamoDB Local via npm, Java from
# Debian if missing); Go modules come through the module proxy.
BIN := bin/dynascope
# A static binary: nothing in dynascope needs cgo, and without the dynamic
# loader and libc a start is about 1 ms shorter.
GOBUILD_ENV := CGO_ENABLED=0
# What `dynascope --version` prints: git describe of the checkout and its
# commit, the same for build, demo and install. -buildvcs=auto also lets Go
# stamp the commit itself where the environment turned stamping off
# (GOFLAGS=-buildvcs=false).
VERSION ?= $(shell git describe --always --dirty 2>/dev/null)
COMMIT ?= $(shell git rev-parse HEAD 2>/dev/null)
LDFLAGS := -X main.version=$(VERSION) -X main.commit=$(COMMIT)

.PHONY: build demo test vet local-start local-stop clean

build:
	$(GOBUILD_ENV) go build -buildvcs=auto -ldflags "$(LDFLAGS)" -o $(BIN) .

# `make demo DEMO_ARGS=--allow-writes` opens it with editing on.
demo: build
	scripts/dynamodb-local.sh install
	$(BIN) demo $(DEMO_ARGS)

test:
	scripts/test.sh

vet:
	go vet ./...

local-start:
	scripts/dynamodb-local.sh start

local-stop:
	scripts/dynamodb-local.sh stop

clean:
	rm -rf bin

.PHONY: install screenshots

# install puts dynascope on the PATH: in $GOBIN, else $GOPATH/bin (~/go/bin).
install:
	$(GOBUILD_ENV) go install -buildvcs=auto -ldflags "$(LDFLAGS)" .

# screenshots renders the README's terminal pictures into docs/img/ from
# real sessions; run it again after UI changes.
screenshots:
	scripts/screenshots.sh

.PHONY: bench

# bench prints the performance figures of issue 7 (render cost at 100k
# items, peak RSS, start-up against the AWS CLI, skip-scan and sampling
# throughput) against a DynamoDB Local of its own; it fails when a bound fails.
bench:
	scripts/bench.sh

.PHONY: fuzz mutate

# fuzz runs every fuzz target for FUZZTIME each (default 30s) and keeps a
# failing input under the package's testdata/fuzz as a regression seed.
fuzz:
	scripts/fuzz.sh

# mutate plants small bugs one at a time in the code users trust (keys,
# itemcodec, itemcodec/number, filterexpr, textfmt, edit, dynamo's answer
# checks and paging stops) and prints per package how many the tests catch
# (efficacy) and how many they reach (coverage), with the survivors. It takes
# minutes; it is not part of make test.
mutate:
	scripts/mutate.sh
