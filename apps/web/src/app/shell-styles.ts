// The styles the login route shows (ADR 019): Mantine's base and the components of the login,
// loader, error and toast screens, about a fifth of Mantine's whole stylesheet. The signed-in
// layout then loads the whole stylesheet (app-layout.tsx), which repeats these rules in the same
// order after them, so the cascade ends as with the whole stylesheet alone. Every Mantine
// stylesheet is the layered one (`@layer mantine`), so the app's own CSS modules win over
// Mantine's whatever order the chunks' stylesheets arrive in. The order below is Mantine's own
// (styles.css): a component after those it builds on (Button after UnstyledButton), since of two
// equal selectors the later rule wins.
import '@mantine/core/styles/baseline.layer.css';
import '@mantine/core/styles/default-css-variables.layer.css';
import '@mantine/core/styles/global.layer.css';
import '@mantine/core/styles/UnstyledButton.layer.css';
import '@mantine/core/styles/VisuallyHidden.layer.css';
import '@mantine/core/styles/Paper.layer.css';
import '@mantine/core/styles/Loader.layer.css';
import '@mantine/core/styles/ActionIcon.layer.css';
import '@mantine/core/styles/CloseButton.layer.css';
import '@mantine/core/styles/Group.layer.css';
import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/FloatingIndicator.layer.css';
import '@mantine/core/styles/Text.layer.css';
import '@mantine/core/styles/Button.layer.css';
import '@mantine/core/styles/Center.layer.css';
import '@mantine/core/styles/Notification.layer.css';
import '@mantine/core/styles/PasswordInput.layer.css';
import '@mantine/core/styles/SegmentedControl.layer.css';
import '@mantine/core/styles/Stack.layer.css';
import '@mantine/core/styles/Title.layer.css';
import '@mantine/notifications/styles.layer.css';
