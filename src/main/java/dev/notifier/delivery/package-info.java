/**
 * Getting a recorded notification to its provider, outside the inbox transaction: claim, render,
 * send, record the outcome. What email and push share (texts, retry policy, failure
 * classification) lives here once; each channel's package only knows its provider.
 */
package dev.notifier.delivery;
