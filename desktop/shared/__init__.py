"""What more than one pane uses: change wording and the history list, relative ages, type colours,
chips, plain-word errors, weak callbacks. Shared code lives here, never in one feature's files."""
