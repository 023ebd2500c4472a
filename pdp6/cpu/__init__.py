"""The Type 166 processor: state layout, execute loop, and one module per family."""
