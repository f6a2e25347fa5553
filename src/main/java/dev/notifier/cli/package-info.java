/** The jar's subcommands besides running the service: the demo and the operator's toolkit. */
package dev.notifier.cli;
