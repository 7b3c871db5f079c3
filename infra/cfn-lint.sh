#!/usr/bin/env bash
# cfn-lint on every template `npm run synth` wrote to cdk.out/, nested ones included (.cfnlintrc.yaml names them
# and lists each check turned off, with its reason). Any error or warning fails.
set -euo pipefail
cd "$(dirname "$0")/.."

# A pip install puts cfn-lint in pyenv's shims or ~/.local/bin, which a non-interactive shell may not have on PATH.
for dir in "$HOME/.pyenv/shims" "$HOME/.local/bin" /usr/local/bin; do
  if ! command -v cfn-lint >/dev/null 2>&1 && [ -x "$dir/cfn-lint" ]; then PATH="$dir:$PATH"; fi
done
if ! command -v cfn-lint >/dev/null 2>&1; then
  echo "cfn-lint is not installed: it checks the synthesised templates against CloudFormation's resource specification." >&2
  echo "Install it with 'pip install cfn-lint' (version 1.x), then run 'npm run synth && npm run lint:cfn' again." >&2
  exit 1
fi
if ! ls cdk.out/*.template.json >/dev/null 2>&1; then
  echo "No templates in cdk.out/: run 'npm run synth' first." >&2
  exit 1
fi

echo "cfn-lint $(cfn-lint --version | awk '{print $2}') on $(ls cdk.out/*.template.json | wc -l) templates"
cfn-lint
echo "cfn-lint: no error, no warning"
