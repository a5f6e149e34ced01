"""What the explorer's browser tests run in the page (issue 32, item 2)."""

# Counts the script runs the page starts from now on (Streamlit marks the app "running").
COUNT_RUNS = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  window.nbRuns = 0;
  new MutationObserver(() => {
    if (app.getAttribute('data-test-script-state') === 'running') window.nbRuns += 1;
  }).observe(app, {attributes: true, attributeFilter: ['data-test-script-state']});
}"""
