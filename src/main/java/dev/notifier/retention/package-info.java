/** How long personal data is kept: notifications and their attempt history are deleted once old and final. */
package dev.notifier.retention;
